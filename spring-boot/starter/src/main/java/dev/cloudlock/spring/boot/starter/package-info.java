/**
 * The cloudlock starter for Spring Boot has no code of its own: it brings {@code cloudlock-spring-boot-autoconfigure}
 * (a {@code CloudLockProvider} bean from {@code cloudlock.*} properties, the health indicator and the
 * {@code cloudlocks} endpoint), {@code cloudlock-micrometer} (meters and observations, wired when the application has
 * a {@code MeterRegistry}) and ShedLock's Spring integration ({@code @EnableSchedulerLock}, {@code @SchedulerLock}).
 * Add the store module the application uses ({@code cloudlock-dynamodb}, {@code cloudlock-s3},
 * {@code cloudlock-firestore}, {@code cloudlock-cosmos}, {@code cloudlock-azure-blob} or
 * {@code cloudlock-azure-table}); {@code cloudlock.store=in-memory} needs none.
 */
@NullMarked
package dev.cloudlock.spring.boot.starter;

import org.jspecify.annotations.NullMarked;
