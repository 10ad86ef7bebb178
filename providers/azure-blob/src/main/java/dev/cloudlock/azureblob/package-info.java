/** The ShedLock lock provider on Azure Blob Storage: one blob per lock, changed by conditional uploads. */
@NullMarked
package dev.cloudlock.azureblob;

import org.jspecify.annotations.NullMarked;
