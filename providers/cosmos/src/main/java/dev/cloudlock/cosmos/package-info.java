/** The ShedLock lock provider on Azure Cosmos DB (NoSQL API): one item per lock, changed by conditional patches. */
@NullMarked
package dev.cloudlock.cosmos;

import org.jspecify.annotations.NullMarked;
