package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.InMemoryLockStore
import dev.cloudlock.spi.LockStore

/** The Kotlin API on the in-memory store. */
class InMemorySuspendingLocksTest : SuspendingLocksCases() {

    private val store = InMemoryLockStore()

    override fun provider(lockedBy: String, store: (LockStore) -> LockStore): CloudLockProvider =
        CloudLockProvider(store(this.store), lockedBy)
}
