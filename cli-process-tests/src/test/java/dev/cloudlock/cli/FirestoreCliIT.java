package dev.cloudlock.cli;

import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.firestore.FirestoreLockProvider;
import java.util.List;

/** The CLI on the Cloud Firestore emulator: {@code init} checks the database, collections need no creating. */
class FirestoreCliIT extends CliContract {

    private static String host() {
        return "127.0.0.1:" + Emulators.firestore().port();
    }

    @Override
    protected List<String> storeArgs(String collection) {
        return List.of(
                "--store",
                "firestore",
                "--endpoint",
                host(),
                "--project",
                Emulators.FIRESTORE_PROJECT,
                "--collection",
                collection);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "firestore",
                "--endpoint",
                "127.0.0.1:" + EmulatorProcess.freePort(),
                "--project",
                Emulators.FIRESTORE_PROJECT);
    }

    @Override
    protected boolean initCreates() {
        return false;
    }

    @Override
    protected CloudLockProvider provider(String collection, String lockedBy) {
        return FirestoreLockProvider.builder()
                .firestore(FirestoreOptions.newBuilder()
                        .setProjectId(Emulators.FIRESTORE_PROJECT)
                        .setEmulatorHost(host())
                        .build()
                        .getService())
                .collection(collection)
                .lockedBy(lockedBy)
                .build();
    }
}
