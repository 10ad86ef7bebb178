package com.example.nightly;

// snippet:job
import java.time.Instant;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
public class NightlyReport {

    private static final Logger LOG = LoggerFactory.getLogger(NightlyReport.class);

    @Scheduled(cron = "${nightly-report.cron:0 0 2 * * *}")
    @SchedulerLock(
            name = "nightly-report",
            lockAtMostFor = "PT30M",
            lockAtLeastFor = "${nightly-report.lock-at-least-for:PT1M}")
    public void run() throws InterruptedException {
        LockAssert.assertLocked();
        LOG.info("nightly-report started at {}", Instant.now());
        Thread.sleep(300); // ... build and send the report
        LOG.info("nightly-report finished at {}", Instant.now());
    }
}
// end-snippet:job
