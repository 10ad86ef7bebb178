package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cloudlock list}: the job locks with their occurrence records summed up, or one job's occurrence records,
 * every page read before anything is printed (so the table's columns fit every row). Under {@code --json} the
 * endpoint's page, {@link AdminAnswers.LocksPage} or {@link AdminAnswers.OccurrenceRecordsPage}, without a next page.
 */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = {
            "List the job locks in the store, page by page, each with its occurrence records (every-occurrence"
                    + " mode: one record <job>@<tick> per tick) summed up: how many, the oldest and newest tick,"
                    + " which are held. --occurrences JOB lists that job's occurrence records instead."
        })
final class ListCommand extends Subcommand {

    @Option(
            names = "--page-size",
            defaultValue = "100",
            description = "Records read per request (1 to 1000, default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(
            names = "--summary-limit",
            defaultValue = "1000",
            description = "How many records a summary of occurrence records reads at most (1 to 100000, default:"
                    + " ${DEFAULT-VALUE}); a summary that stops there says so.")
    int summaryLimit;

    @Option(
            names = "--occurrences",
            paramLabel = "JOB",
            description = "List the occurrence records of JOB (named JOB@<tick>) instead of the jobs.")
    @Nullable
    String occurrences;

    @Override
    public Integer call() {
        if (pageSize < 1 || pageSize > LockStore.MAX_PAGE_SIZE) {
            throw new IllegalArgumentException(
                    "--page-size must be 1 to " + LockStore.MAX_PAGE_SIZE + ", was " + pageSize);
        }
        if (summaryLimit < 1 || summaryLimit > LockAdmin.MAX_SUMMARY_LIMIT) {
            throw new IllegalArgumentException(
                    "--summary-limit must be 1 to " + LockAdmin.MAX_SUMMARY_LIMIT + ", was " + summaryLimit);
        }
        return occurrences == null ? jobs() : occurrences(occurrences);
    }

    private int jobs() {
        LockAdmin admin = admin();
        List<LockAdmin.Job> jobs = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.JobsPage page = admin.jobs(token.orElse(null), pageSize, summaryLimit);
            jobs.addAll(page.jobs());
            skipped.addAll(page.skipped());
            token = page.nextPageToken();
        } while (token.isPresent());
        if (jobs.isEmpty() && skipped.isEmpty()) {
            root.store.prefixNote().ifPresent(err()::println);
        }
        if (json()) {
            out().println(Json.write(new AdminAnswers.LocksPage(
                    jobs.stream().map(AdminAnswers.JobLock::of).toList(), skipped, null)));
            return CloudlockCommand.DONE;
        }
        out().print(Output.jobs(jobs, summaryLimit, Instant.now()));
        if (!skipped.isEmpty()) {
            out().print(Output.skipped(skipped));
        }
        return CloudlockCommand.DONE;
    }

    private int occurrences(String job) {
        LockAdmin admin = admin();
        List<LockView> records = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        Optional<LockView> jobRecord = Optional.empty();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.OccurrenceRecordsPage page = admin.occurrenceRecords(job, token.orElse(null), pageSize);
            if (page.firstPage()) {
                jobRecord = page.job();
            }
            records.addAll(page.records());
            skipped.addAll(page.skipped());
            token = page.nextPageToken();
        } while (token.isPresent());
        if (jobRecord.isEmpty() && records.isEmpty()) {
            return refused(
                    AdminAnswers.Problem.NO_SUCH_JOB,
                    "No job named '" + job + "' in this store: no record '" + job + "' and no occurrence record '" + job
                            + "@<tick>'.");
        }
        records.sort(Comparator.comparing(LockView::name));
        if (json()) {
            out().println(Json.write(new AdminAnswers.OccurrenceRecordsPage(job, records, skipped, null)));
            return CloudlockCommand.DONE;
        }
        out().print(
                        records.isEmpty()
                                ? "No occurrence records of '" + job + "' in this store.\n"
                                : Output.table(records, Instant.now()));
        if (!skipped.isEmpty()) {
            out().print(Output.skipped(skipped));
        }
        return CloudlockCommand.DONE;
    }
}
