package dev.cloudlock.spi;

import dev.cloudlock.core.CloudLockProviderBuilder;
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

    /**
     * {@inheritDoc} Every {@link StoreSetting.Kind#URL URL} setting given is checked first, even one the store will not
     * use (an endpoint beside the application's own client), so that a malformed value never passes unnoticed.
     */
    @Override
    public final CloudLockProviderBuilder<?> builder(StoreSettings settings) {
        for (StoreSetting setting : this.settings) {
            if (setting.kind() == StoreSetting.Kind.URL) {
                settings.url(setting);
            }
        }
        return newBuilder(settings);
    }

    /**
     * A provider builder on the store that {@code settings} describe, with the store's coordinates set; its URL
     * settings are already checked. It sends no request.
     *
     * @throws IllegalArgumentException when a setting is missing or bad, naming it as the user wrote it
     */
    protected abstract CloudLockProviderBuilder<?> newBuilder(StoreSettings settings);
}
