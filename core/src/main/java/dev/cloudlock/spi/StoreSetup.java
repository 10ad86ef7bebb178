package dev.cloudlock.spi;

import java.util.Objects;

/**
 * What {@link LockStore#init} found or did.
 *
 * @param created {@code true} when it created something (a table, a container), {@code false} when everything was
 *     already there
 * @param description one sentence naming what it found or created, for an operator to read
 */
public record StoreSetup(boolean created, String description) {

    public StoreSetup {
        Objects.requireNonNull(description, "description");
    }
}
