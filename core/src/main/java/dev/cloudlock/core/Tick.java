package dev.cloudlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One scheduled occurrence of a job: the job's name and the time the occurrence was scheduled for. Every delivery
 * of the same occurrence (a retry, a duplicate) carries the same scheduled time, so it maps to the same tick.
 *
 * @param jobName the lock name the guard uses
 * @param scheduledTime the occurrence's scheduled time, already truncated to the schedule's resolution
 */
public record Tick(String jobName, Instant scheduledTime) {

    public Tick {
        Objects.requireNonNull(jobName, "jobName");
        Objects.requireNonNull(scheduledTime, "scheduledTime");
    }

    /**
     * The tick of {@code scheduledTime} truncated down to a whole multiple of {@code resolution} since the epoch, so
     * that deliveries stamped a little apart (e.g. 02:00:00.120 and 02:00:00.870 with a resolution of one minute)
     * are the same occurrence.
     *
     * @throws IllegalArgumentException when the resolution is not positive
     */
    public static Tick of(String jobName, Instant scheduledTime, Duration resolution) {
        Objects.requireNonNull(scheduledTime, "scheduledTime");
        Objects.requireNonNull(resolution, "resolution");
        if (resolution.isNegative() || resolution.isZero()) {
            throw new IllegalArgumentException("Tick resolution must be positive, was " + resolution);
        }
        long grain = resolution.toMillis();
        if (grain == 0) {
            throw new IllegalArgumentException("Tick resolution must be at least 1 ms, was " + resolution);
        }
        long millis = Math.floorDiv(scheduledTime.toEpochMilli(), grain) * grain;
        return new Tick(jobName, Instant.ofEpochMilli(millis));
    }
}
