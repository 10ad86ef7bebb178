package dev.cloudlock.function.aws;

import java.util.function.Supplier;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Lambda's credentials for the guard's client, looked up afresh after a SnapStart restore: credentials (and a
 * container-credentials cache) captured in a snapshot may be reused by many execution environments, hours after it
 * was taken, so the provider they came from is replaced when the runtime restores one. Registered with CRaC's global
 * context on creation; on a JVM without CRaC that registration does nothing.
 */
final class LambdaCredentials implements AwsCredentialsProvider, Resource {

    private final Supplier<AwsCredentialsProvider> lookup;
    private volatile AwsCredentialsProvider current;

    LambdaCredentials(Supplier<AwsCredentialsProvider> lookup) {
        this.lookup = lookup;
        this.current = lookup.get();
        Core.getGlobalContext().register(this); // the client holds this provider, so it stays reachable
    }

    @Override
    public AwsCredentials resolveCredentials() {
        return current.resolveCredentials();
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        // nothing to close: the next lookup replaces the provider
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        current = lookup.get();
    }
}
