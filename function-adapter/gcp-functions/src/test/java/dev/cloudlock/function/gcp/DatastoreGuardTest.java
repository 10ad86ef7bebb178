package dev.cloudlock.function.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.datastore.DatastoreLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The guard built from the function's variables alone on Datastore: {@code CLOUDLOCK_STORE=datastore} and the
 * {@code CLOUDLOCK_DATASTORE_*} variables, on the emulator.
 */
class DatastoreGuardTest {

    @Test
    void theGuardLocksInTheKindTheVariablesName() throws Exception {
        String job = "nightly-" + UUID.randomUUID();
        String host = "127.0.0.1:" + Emulators.datastore().port();
        Map<String, String> env = Map.of(
                "CLOUDLOCK_STORE",
                "datastore",
                "CLOUDLOCK_DATASTORE_PROJECT",
                Emulators.DATASTORE_PROJECT,
                "CLOUDLOCK_DATASTORE_KIND",
                "guard_locks",
                "CLOUDLOCK_DATASTORE_ENDPOINT",
                host,
                "CLOUDLOCK_JOB_NAME",
                job);
        GcpTickGuard guard = GcpTickGuard.fromEnvironment(env, type -> null);
        Tick tick = new Tick(job, Instant.parse("2026-11-30T02:00:00Z"));

        assertThat(guard.run(tick, run -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard.run(tick, run -> {})).as("the same occurrence again").isEqualTo(TickStatus.DONE);
        assertThat(DatastoreLockProvider.builder()
                        .datastore(DatastoreOptions.newBuilder()
                                .setProjectId(Emulators.DATASTORE_PROJECT)
                                .setHost("http://" + host)
                                .setCredentials(NoCredentials.getInstance())
                                .setTransportOptions(DatastoreOptions.getDefaultHttpTransportOptions())
                                .build()
                                .getService())
                        .kind("guard_locks")
                        .build()
                        .store()
                        .read(job)
                        .orElseThrow()
                        .watermark())
                .isEqualTo(tick.scheduledTime());
    }
}
