package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;

/**
 * Wraps the provider the properties describe, before it becomes the bean: how the meters are added when Micrometer
 * is present without this class naming Micrometer.
 */
@FunctionalInterface
interface ProviderDecorator {

    /**
     * @param provider the provider built from the properties
     * @param store the store's name, as {@code cloudlock.store} spells it (the meters' {@code store} tag)
     */
    CloudLockProvider decorate(CloudLockProvider provider, String store);
}
