package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import org.junit.jupiter.api.Test;

/**
 * The {@link StaleHolderScenario} as tests, for a store's fenced writes: extend it with the store's two providers and
 * its sink (a {@code @Nested} subclass per further kind of write).
 */
public abstract class StaleHolderCases {

    /** A provider on the store's lock, for the holder named {@code lockedBy}: A and B share the lock. */
    protected abstract CloudLockProvider provider(String lockedBy);

    /** The record the job writes, fenced and unfenced. */
    protected abstract StaleHolderScenario.Sink sink();

    private StaleHolderScenario scenario() {
        return new StaleHolderScenario(provider("A"), provider("B"));
    }

    @Test
    public void aStaleHoldersWriteIsRefusedAndTheNewerHoldersDataStays() throws Exception {
        scenario().aStaleHoldersWriteIsRefusedAndTheNewerHoldersDataStays(sink());
    }

    @Test
    public void aStaleHoldersFirstWriteAfterTheNewerHoldersIsRefused() throws Exception {
        scenario().aStaleHoldersFirstWriteAfterTheNewerHoldersIsRefused(sink());
    }

    @Test
    public void theSameHoldingWritesTwiceWithItsToken() throws Exception {
        scenario().theSameHoldingWritesTwiceWithItsToken(sink());
    }

    @Test
    public void withoutTheFenceAStaleHoldersWriteLandsOverTheNewerHolders() throws Exception {
        scenario().withoutTheFenceAStaleHoldersWriteLandsOverTheNewerHolders(sink());
    }
}
