package dev.cloudlock.cli;

import dev.cloudlock.spi.StoreSetup;
import picocli.CommandLine.Command;

/**
 * {@code cloudlock init}: {@link dev.cloudlock.core.LockAdmin#init}, idempotent; under {@code --json} the
 * {@link StoreSetup}.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Create the DynamoDB table (and turn its TTL on for the occurrence records' expiresAt) or"
                + " the Cosmos DB container (default TTL -1) if absent; check the S3 bucket, Blob container or"
                + " Firestore database, and print the lifecycle rule or TTL policy to set that expires occurrence"
                + " records. Safe to run again.")
final class InitCommand extends Subcommand {

    @Override
    public Integer call() {
        StoreSetup setup = admin().init();
        out().println(json() ? Json.write(setup) : setup.description() + ".");
        return CloudlockCommand.DONE;
    }
}
