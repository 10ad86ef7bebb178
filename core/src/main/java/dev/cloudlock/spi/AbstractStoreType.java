package dev.cloudlock.spi;

import java.util.List;
import java.util.Objects;

/**
 * A {@link StoreType} whose name, title and settings are given once, to its constructor: a store module extends it
 * with only how it builds a provider and what its setup needs.
 */
public abstract class AbstractStoreType implements StoreType {

    private final String name;
    private final String title;
    private final List<StoreSetting> settings;

    /**
     * @param name lower-case words joined by {@code -}, such as {@code azure-blob}
     * @param title the service's name for people, such as {@code Azure Blob Storage}
     * @param settings the settings the store takes, in the order its documentation lists them
     */
    protected AbstractStoreType(String name, String title, StoreSetting... settings) {
        this.name = Objects.requireNonNull(name, "name");
        this.title = Objects.requireNonNull(title, "title");
        this.settings = List.of(settings);
        if (!StoreSetting.NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "A store's name is lower-case words joined by '-', such as azure-blob; was '" + name + "'");
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String title() {
        return title;
    }

    @Override
    public final List<StoreSetting> settings() {
        return settings;
    }
}
