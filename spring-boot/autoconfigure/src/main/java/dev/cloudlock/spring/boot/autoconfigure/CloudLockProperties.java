package dev.cloudlock.spring.boot.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code cloudlock.*} properties every store shares: which store holds the locks, the identity written to them
 * and the deadlines of the store's calls. Where in the store the locks are is read from {@code cloudlock.<store>.*},
 * with the settings that store declares ({@code dev.cloudlock.spi.StoreType#settings}). A value left unset takes the
 * provider builder's default.
 */
@ConfigurationProperties("cloudlock")
public class CloudLockProperties {

    /**
     * The store that holds the locks, by the name its module registers, such as dynamodb; its module must be on the
     * class path. Unset, the one store module on the class path holds them; with none or several, startup fails.
     */
    private @Nullable String store;

    /** The readable identity written to each lock's lockedBy; default hostname/pid. */
    private @Nullable String lockedBy;

    /** The deadline of each store call, all retries included; default 10 s. */
    private @Nullable Duration callTimeout;

    /** The deadline of each single attempt within a store call; default 3 s. */
    private @Nullable Duration attemptTimeout;

    /**
     * Whether startup reads one record from the store, so that a missing table, bucket or container, or a missing
     * permission, fails startup instead of the first scheduled job.
     */
    private boolean checkOnStartup = true;

    public @Nullable String getStore() {
        return store;
    }

    public void setStore(@Nullable String store) {
        this.store = store;
    }

    public @Nullable String getLockedBy() {
        return lockedBy;
    }

    public void setLockedBy(@Nullable String lockedBy) {
        this.lockedBy = lockedBy;
    }

    public @Nullable Duration getCallTimeout() {
        return callTimeout;
    }

    public void setCallTimeout(@Nullable Duration callTimeout) {
        this.callTimeout = callTimeout;
    }

    public @Nullable Duration getAttemptTimeout() {
        return attemptTimeout;
    }

    public void setAttemptTimeout(@Nullable Duration attemptTimeout) {
        this.attemptTimeout = attemptTimeout;
    }

    public boolean isCheckOnStartup() {
        return checkOnStartup;
    }

    public void setCheckOnStartup(boolean checkOnStartup) {
        this.checkOnStartup = checkOnStartup;
    }
}
