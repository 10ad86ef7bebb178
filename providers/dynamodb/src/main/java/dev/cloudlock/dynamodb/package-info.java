/** The ShedLock lock provider on Amazon DynamoDB: one item per lock, changed by conditional {@code UpdateItem}s. */
@NullMarked
package dev.cloudlock.dynamodb;

import org.jspecify.annotations.NullMarked;
