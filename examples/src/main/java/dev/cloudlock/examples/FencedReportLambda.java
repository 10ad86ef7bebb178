package dev.cloudlock.examples;

// snippet:fenced-report
import com.amazonaws.services.lambda.runtime.Context;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.dynamodb.DynamoDbFence;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedSchedulerHandler;
import dev.cloudlock.s3.S3Fence;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * A guarded nightly report that writes its result fenced by its run's token: a run frozen past its lease (a container
 * resumed minutes later) cannot overwrite the report of the run that took over.
 */
public class FencedReportLambda extends GuardedSchedulerHandler {

    private final DynamoDbClient dynamoDb = DynamoDbClient.create();
    private final S3Client s3 = S3Client.create();

    @Override
    protected void runTick(Map<String, Object> payload, TickContext run, Context context) throws Exception {
        String day = run.scheduledTime().toString().substring(0, 10);
        String report = "report for " + day; // ... build it
        try {
            S3Fence.inMetadata()
                    .putObject(
                            s3,
                            PutObjectRequest.builder()
                                    .bucket("reports")
                                    .key("nightly/" + day + ".txt")
                                    .build(),
                            RequestBody.fromString(report),
                            run.fencingToken());
            DynamoDbFence.inAttribute()
                    .putItem(
                            dynamoDb,
                            PutItemRequest.builder()
                                    .tableName("report-index")
                                    .item(Map.of(
                                            "day", AttributeValue.fromS(day),
                                            "key", AttributeValue.fromS("nightly/" + day + ".txt")))
                                    .build(),
                            run.fencingToken());
        } catch (StaleFencingTokenException late) {
            // a newer run holds the job and wrote first: this run's lease ran out while it was paused; stop quietly
            context.getLogger().log(late.getMessage());
        }
    }
}
// end-snippet:fenced-report
