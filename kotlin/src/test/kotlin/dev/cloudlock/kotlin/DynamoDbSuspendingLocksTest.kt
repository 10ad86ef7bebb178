package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.dynamodb.DynamoDbLockProvider
import dev.cloudlock.emulators.Emulators
import dev.cloudlock.spi.LockStore
import java.net.URI
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider
import software.amazon.awssdk.regions.Region
import software.amazon.awssdk.services.dynamodb.DynamoDbClient

/** The Kotlin API on DynamoDB, served by dynalite (one per test JVM); each case uses fresh lock names. */
class DynamoDbSuspendingLocksTest : SuspendingLocksCases() {

    override fun provider(lockedBy: String, store: (LockStore) -> LockStore): CloudLockProvider =
        CloudLockProvider(
            store(DynamoDbLockProvider.builder().client(client).tableName(TABLE).build().store()),
            lockedBy,
        )

    companion object {
        private const val TABLE = "kotlin-locks"
        private lateinit var client: DynamoDbClient

        @JvmStatic
        @BeforeAll
        fun createTable() {
            client =
                DynamoDbClient.builder()
                    .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                    .build()
            DynamoDbLockProvider.builder().client(client).tableName(TABLE).build().admin().init()
        }

        @JvmStatic
        @AfterAll
        fun closeClient() {
            client.close()
        }
    }
}
