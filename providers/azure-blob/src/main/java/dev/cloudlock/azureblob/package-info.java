/**
 * The ShedLock lock provider on Azure Blob Storage: one blob per lock, changed by conditional uploads; and
 * {@link dev.cloudlock.azureblob.BlobAccount}, the order in which the storage account is found from settings.
 */
@NullMarked
package dev.cloudlock.azureblob;

import org.jspecify.annotations.NullMarked;
