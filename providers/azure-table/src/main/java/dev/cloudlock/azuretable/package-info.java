/**
 * The ShedLock lock provider on Azure Table Storage: one entity per lock, changed by conditional inserts and
 * replaces.
 */
@NullMarked
package dev.cloudlock.azuretable;

import org.jspecify.annotations.NullMarked;
