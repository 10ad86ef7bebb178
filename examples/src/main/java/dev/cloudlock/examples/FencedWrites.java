package dev.cloudlock.examples;

import com.azure.core.util.BinaryData;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.azure.storage.blob.BlobClient;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.firestore.Firestore;
import dev.cloudlock.azureblob.BlobFence;
import dev.cloudlock.cosmos.CosmosFence;
import dev.cloudlock.dynamodb.DynamoDbFence;
import dev.cloudlock.fencing.jdbc.JdbcFence;
import dev.cloudlock.fencing.jdbc.JdbcFencedTable;
import dev.cloudlock.firestore.FirestoreFence;
import dev.cloudlock.s3.S3Fence;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * A job's report written fenced by its run's token ({@code FencedLock.fencingToken()}, {@code
 * TickContext.fencingToken()}), on each store: a holder whose lease ran out gets {@code StaleFencingTokenException}
 * instead of overwriting the newer holder's report. The docs' store pages show these.
 */
final class FencedWrites {

    private FencedWrites() {}

    static void dynamoDb(DynamoDbClient dynamoDb, String body, long token) {
        // snippet:dynamodb
        DynamoDbFence fence = DynamoDbFence.inAttribute(); // the attribute cloudlockFence
        fence.updateItem(
                dynamoDb,
                UpdateItemRequest.builder()
                        .tableName("reports")
                        .key(Map.of("id", AttributeValue.fromS("nightly")))
                        .updateExpression("SET #body = :body")
                        .conditionExpression("attribute_not_exists(#frozen)") // yours: kept, ANDed with the fence
                        .expressionAttributeNames(Map.of("#body", "body", "#frozen", "frozen"))
                        .expressionAttributeValues(Map.of(":body", AttributeValue.fromS(body)))
                        .build(),
                token);
        // a newer holder wrote it: StaleFencingTokenException; your own condition failed:
        // ConditionalCheckFailedException
        // end-snippet:dynamodb
    }

    static void s3(S3Client s3, String body, long token) {
        // snippet:s3
        S3Fence.inMetadata() // x-amz-meta-cloudlock-fence
                .putObject(
                        s3,
                        PutObjectRequest.builder()
                                .bucket("reports")
                                .key("nightly.csv")
                                .build(),
                        RequestBody.fromString(body), // sent again after a lost race: replayable
                        token);
        // end-snippet:s3
    }

    static void blob(BlobClient report, String body, long token) {
        // snippet:azure-blob
        BlobFence.inMetadata().upload(report, BinaryData.fromString(body), token); // metadata cloudlockfence
        // end-snippet:azure-blob
    }

    static void firestore(Firestore db, String body, long token) throws InterruptedException {
        // snippet:firestore
        FirestoreFence fence = FirestoreFence.inField(); // the field cloudlockFence
        fence.run(db, transaction -> {
            // your transaction: the fence reads the document in it, so check and write commit together
            fence.set(transaction, db.collection("reports").document("nightly"), Map.of("body", body), token);
            return null;
        });
        // end-snippet:firestore
    }

    static void cosmos(CosmosContainer reports, ObjectNode report, String body, long token) {
        // snippet:cosmos
        CosmosFence fence = CosmosFence.inProperty(); // the property cloudlockFence
        // an existing item: one conditional patch
        fence.patch(
                reports,
                "nightly",
                new PartitionKey("nightly"),
                CosmosPatchOperations.create().set("/body", body),
                token,
                ObjectNode.class);
        // a whole item, created or replaced: read, then replace If-Match on its _etag
        fence.upsert(reports, report, new PartitionKey("nightly"), token);
        // end-snippet:cosmos
    }

    static void jdbc(Connection connection, String body, long token) throws SQLException {
        // snippet:jdbc
        // CREATE TABLE reports (id VARCHAR(40) PRIMARY KEY, body TEXT, fence BIGINT)
        JdbcFencedTable reports = JdbcFencedTable.of("reports", JdbcFence.inColumn("fence"), "id");
        reports.upsert(connection, Map.of("id", "nightly"), Map.of("body", body), token);
        // or in a statement of your own: "... WHERE id = ? AND " + JdbcFence.inColumn("fence").condition()
        // end-snippet:jdbc
    }
}
