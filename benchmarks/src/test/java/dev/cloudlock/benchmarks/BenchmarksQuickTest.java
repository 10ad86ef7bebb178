package dev.cloudlock.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The benchmark harness in quick mode, so it cannot rot. It asserts what is deterministic — requests on the wire
 * per operation, the DESIGN.md table for DynamoDB — and that every section was produced; never a timing.
 */
class BenchmarksQuickTest {

    @Test
    void quickRunProducesTheReportWithDesignRoundTrips() throws Exception {
        Report report = Benchmarks.run(true, Path.of(System.getProperty("cloudlock.repo.dir", "..")));
        String md = report.markdown();
        assertThat(md).contains("DynamoDB on dynalite", "DynamoDB on moto", "AWS Lambda guard");
        // One UpdateItem per acquire (first ever, steady state, after another holder), release and extend.
        for (String op : new String[] {"acquire, first ever", "extend", "release",
                "acquire, steady state (same holder)", "acquire after another holder"}) {
            assertThat(md).contains("| " + op + " | 1 | {UpdateItem=1} |");
        }
        // A lost race: 1 request where the old item comes back (moto), plus 1 GetItem where it does not (dynalite).
        assertThat(md).contains("| acquire that loses (contended) | 1 | {UpdateItem=1} |");
        assertThat(md).contains("| acquire that loses (contended) | 2 | {GetItem=1, UpdateItem=1} |");
        assertThat(md).contains("$1.25 (same holder)");
        String json = Report.toJson(java.util.Map.of("k", "v\"q"), "");
        assertThat(json).contains("\"v\\\"q\"");
    }
}
