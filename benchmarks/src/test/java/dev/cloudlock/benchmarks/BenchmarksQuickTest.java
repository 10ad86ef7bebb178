package dev.cloudlock.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The benchmark harness in quick mode, so it cannot rot. It asserts what is deterministic — requests on the wire
 * per operation, the expected request counts for DynamoDB — and that every section was produced; never a timing.
 * A store's assertions run when the build has the store ({@link BenchmarkStore#all()}), so that a build without a
 * store's module runs the rest.
 */
class BenchmarksQuickTest {

    private static final Set<String> FOUND = Set.copyOf(BenchmarkStore.names());

    @Test
    void aStoreTheBuildDoesNotHaveIsRefusedNamingTheOnesItHas() {
        assertThat(FOUND).isNotEmpty();
        assertThatThrownBy(() -> BenchmarkStore.named("no-such-store"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown store 'no-such-store': give one of " + String.join(", ", BenchmarkStore.names())
                        + " (the stores whose modules this build has)");
        System.out.println("Stores found: " + String.join(", ", BenchmarkStore.names()));
    }

    @Test
    void quickRunProducesTheReportWithDesignRoundTrips() throws Exception {
        Report report = Benchmarks.run(true, Path.of(System.getProperty("cloudlock.repo.dir", "..")));
        String md = report.markdown();
        assertThat(md).contains("AWS Lambda guard");
        // the figure a user pays, computed by the run: the guard on a handler that uses DynamoDB, sharing its client
        assertThat(md)
                .containsPattern(
                        "\nAdded by the guard to a handler that already uses the SDK: \\*\\*-?\\d+ ms\\*\\* p50\n");
        assertSectionsOfTheStoresFound(md);
        if (FOUND.contains("dynamodb")) {
            assertDynamoDbRoundTrips(md);
        }
        if (FOUND.contains("s3")) {
            // S3: one conditional PUT per steady-state acquire, release and extend; a fresh instance reads first.
            assertThat(md)
                    .contains(
                            "S3 on moto",
                            "| acquire, steady state (same holder) | 1 | {PutObject=1} |",
                            "| release | 1 | {PutObject=1} |",
                            "| extend | 1 | {PutObject=1} |",
                            "| acquire that loses (contended) | 1 | {GetObject=1} |");
        }
        if (FOUND.contains("firestore")) {
            // Firestore: one preconditioned write per steady-state acquire (from our own release), release and
            // extend; a read first where this instance knows no free state of the name.
            assertThat(md)
                    .contains(
                            "Firestore on the Cloud Firestore emulator",
                            "| acquire, first ever | 2 | {BatchGetDocuments=1, Commit=1} |",
                            "| acquire, steady state (same holder) | 1 | {Commit=1} |",
                            "| release | 1 | {Commit=1} |",
                            "| extend | 1 | {Commit=1} |");
        }
        if (FOUND.contains("cosmos")) {
            // Cosmos: one conditional patch per acquire of an existing lock, release and extend.
            assertThat(md)
                    .contains(
                            "Cosmos DB on",
                            "| acquire, steady state (same holder) | 1 | {PATCH docs item=1} |",
                            "| release | 1 | {PATCH docs item=1} |",
                            "| extend | 1 | {PATCH docs item=1} |",
                            "| acquire, first ever | 2 | {PATCH docs item=1, POST docs feed=1} |");
        }
        if (FOUND.contains("azure-blob")) {
            // Blob Storage: one conditional Put Blob per steady-state acquire, release and extend; a loser reads once.
            assertThat(md)
                    .contains(
                            "Azure Blob Storage on Azurite",
                            "| acquire, steady state (same holder) | 1 | {Put Blob=1} |",
                            "| release | 1 | {Put Blob=1} |",
                            "| extend | 1 | {Put Blob=1} |",
                            "| acquire that loses (contended) | 1 | {Get Blob=1} |");
        }
        if (FOUND.contains("spanner")) {
            // Spanner: one read-write transaction per acquire, release and extend: its query, then its commit.
            assertThat(md)
                    .contains(
                            "Cloud Spanner on the Cloud Spanner emulator",
                            "| acquire, steady state (same holder) | 2 | {Commit=1, ExecuteStreamingSql=1} |",
                            "| release | 2 | {Commit=1, ExecuteStreamingSql=1} |",
                            "| extend | 2 | {Commit=1, ExecuteStreamingSql=1} |");
        }
        if (FOUND.contains("azure-table")) {
            // Table Storage: one Update Entity with If-Match per steady-state acquire, release and extend.
            assertThat(md)
                    .contains(
                            "Azure Table Storage on Azurite",
                            "| acquire, steady state (same holder) | 1 | {Update Entity=1} |",
                            "| release | 1 | {Update Entity=1} |",
                            "| extend | 1 | {Update Entity=1} |",
                            "| acquire, first ever | 2 | {Get Entity=1, Insert Entity=1} |");
        }
        if (FOUND.contains("datastore")) {
            // Datastore: one commit with the entity's version per steady-state acquire, release and extend.
            assertThat(md)
                    .contains(
                            "Datastore on the legacy Datastore emulator",
                            "| acquire, steady state (same holder) | 1 | {commit=1} |",
                            "| release | 1 | {commit=1} |",
                            "| extend | 1 | {commit=1} |",
                            "| acquire, first ever | 2 | {commit=1, lookup=1} |");
        }
        String json = Report.toJson(Map.of("k", "v\"q"), "");
        assertThat(json).contains("\"v\\\"q\"");
    }

    /** A section for each store found, and none for a store the build does not have. */
    private static void assertSectionsOfTheStoresFound(String md) {
        Map.of(
                        "dynamodb", "## DynamoDB on",
                        "s3", "## S3 on",
                        "firestore", "## Firestore on",
                        "cosmos", "## Cosmos DB on",
                        "azure-blob", "## Azure Blob Storage on",
                        "azure-table", "## Azure Table Storage on",
                        "spanner", "## Cloud Spanner on",
                        "datastore", "## Datastore on")
                .forEach((store, heading) -> {
                    if (FOUND.contains(store)) {
                        assertThat(md).contains(heading);
                    } else {
                        assertThat(md).doesNotContain(heading);
                    }
                });
    }

    private static void assertDynamoDbRoundTrips(String md) {
        assertThat(md).contains("DynamoDB on dynalite", "DynamoDB on moto 5.2.1");
        // One UpdateItem per acquire (first ever, steady state, after another holder), release and extend.
        for (String op : new String[] {
            "acquire, first ever",
            "extend",
            "release",
            "acquire, steady state (same holder)",
            "acquire after another holder (this instance held it before)"
        }) {
            assertThat(md).contains("| " + op + " | 1 | {UpdateItem=1} |");
        }
        // A lost race: 1 request where the old item comes back (moto), plus 1 GetItem where it does not (dynalite).
        assertThat(md).contains("| acquire that loses (contended) | 1 | {UpdateItem=1} |");
        assertThat(md).contains("| acquire that loses (contended) | 2 | {GetItem=1, UpdateItem=1} |");
        assertThat(md).contains("| first call of a process: acquire + release | 3 | {GetItem=1, UpdateItem=2} |");
        assertThat(md).contains("$1.25 (same holder)");
    }

    @Test
    void quickEveryOccurrenceRunCountsTwoMoreWritesPerTickThatRuns() throws Exception {
        String md = Benchmarks.runEveryOccurrence(true).markdown();
        System.out.println(md);
        // DynamoDB: the watermark's acquire and release, and every occurrence's two more on the occurrence record.
        if (FOUND.contains("dynamodb")) {
            assertThat(md)
                    .contains("| a tick that runs (acquire, complete) | 2.0 | {UpdateItem=2} | 4.0 | {UpdateItem=4} |");
        }
        assertSectionsOfTheStoresFound(md);
    }
}
