package dev.cloudlock.function.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.crac.Core;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The guard's SnapStart hooks called as Lambda's Java runtime calls them (before the snapshot, after a restore), on
 * DynamoDB served by moto, counting the requests on the wire. Taking and restoring a real snapshot needs Lambda with
 * SnapStart (a CRaC-capable runtime); here the hooks run on a plain JVM, where registering them does nothing.
 */
class LambdaSnapStartTest {

    private static final List<String> REQUESTS = Collections.synchronizedList(new ArrayList<>());
    private static final DynamoDbClient CLIENT = DynamoDbClient.builder()
            .endpointOverride(URI.create(Emulators.moto().endpoint()))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
            .httpClient(UrlConnectionHttpClient.create())
            .overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                @Override
                public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                    REQUESTS.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
                }
            }))
            .build();
    private static final Map<String, String> TICK = Map.of(LambdaTickGuard.SCHEDULED_TIME, "2026-11-30T02:00:00Z");

    @BeforeEach
    void freshTable() {
        Emulators.resetMoto();
        DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("shedlock")
                .build()
                .admin()
                .init();
        REQUESTS.clear();
    }

    private static LambdaTickGuard guard(String table, GuardSettings settings) {
        return new LambdaTickGuard(
                new LambdaGuardSettings(table, settings),
                DynamoDbLockProvider.builder()
                        .client(CLIENT)
                        .tableName(table)
                        .lockedBy("test")
                        .build());
    }

    private static LambdaTickGuard guard() {
        return guard(
                "shedlock",
                GuardSettings.builder().jobName("job-" + UUID.randomUUID()).build());
    }

    private static TickStatus runTick(LambdaTickGuard guard) {
        return guard.run(TICK, new FixedContext(30_000), tick -> {});
    }

    @Test
    void aFirstTickWithoutPrimingReadsTheStoresTimeBeforeTakingTheLock() {
        LambdaTickGuard guard = guard();

        assertThat(runTick(guard)).isEqualTo(TickStatus.ACQUIRED);

        assertThat(REQUESTS).containsExactly("GetItem", "UpdateItem", "UpdateItem");
    }

    @Test
    void beforeCheckpointPrimesWithOneReadSoTheFirstTickNeedsOnlyItsTwoWrites() throws Exception {
        LambdaTickGuard guard = guard();
        LambdaSnapStart hooks = LambdaSnapStart.register(guard);

        hooks.beforeCheckpoint(Core.getGlobalContext());
        assertThat(REQUESTS).containsExactly("GetItem");
        REQUESTS.clear();

        assertThat(runTick(guard)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(REQUESTS).containsExactly("UpdateItem", "UpdateItem");
    }

    @Test
    void afterRestoreForgetsTheStoresTimeSoTheFirstTickAfterARestoreReadsItAgain() throws Exception {
        LambdaTickGuard guard = guard();
        LambdaSnapStart hooks = LambdaSnapStart.register(guard);
        hooks.beforeCheckpoint(Core.getGlobalContext());
        REQUESTS.clear();

        hooks.afterRestore(Core.getGlobalContext());

        assertThat(runTick(guard)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(REQUESTS).containsExactly("GetItem", "UpdateItem", "UpdateItem");
    }

    @Test
    void underProvisionedConcurrencyTheGuardPrimesItselfInTheInitPhase() {
        LambdaTickGuard guard = guard();

        guard.primeIfInitialisedAhead(Map.of(LambdaTickGuard.INITIALIZATION_TYPE, "provisioned-concurrency"));

        assertThat(REQUESTS).containsExactly("GetItem");
    }

    @Test
    void onAnOnDemandColdStartTheGuardDoesNotPrimeItsInitPhaseIsPartOfTheColdStart() {
        LambdaTickGuard guard = guard();

        guard.primeIfInitialisedAhead(Map.of(LambdaTickGuard.INITIALIZATION_TYPE, "on-demand"));
        guard.primeIfInitialisedAhead(Map.of(LambdaTickGuard.INITIALIZATION_TYPE, "snap-start"));

        assertThat(REQUESTS)
                .as("SnapStart primes in its beforeCheckpoint hook instead")
                .isEmpty();
    }

    @Test
    void primingWithoutAConfiguredJobReadsThePrimingRecordAndWritesNothing() {
        LambdaTickGuard guard = guard("shedlock", GuardSettings.defaults());

        guard.prime();

        assertThat(REQUESTS).containsExactly("GetItem");
        assertThat(CLIENT.getItem(b -> b.tableName("shedlock")
                                .key(Map.of(
                                        DynamoDbLockProvider.DEFAULT_PARTITION_KEY,
                                        AttributeValue.fromS(LambdaTickGuard.PRIMING_NAME))))
                        .hasItem())
                .isFalse();
    }

    @Test
    void primingAMissingTableFailsInTheInitPhaseNamingTheTable() {
        LambdaTickGuard guard =
                guard("no-such-table", GuardSettings.builder().jobName("job").build());

        assertThatThrownBy(guard::prime)
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("no-such-table");
    }
}
