/**
 * Fenced writes to SQL tables through JDBC: a holder whose lease ran out cannot overwrite a row a newer holding wrote.
 * The lock is taken on any cloudlock store; the fencing token it hands out is checked here, in the job's database.
 */
@NullMarked
package dev.cloudlock.fencing.jdbc;

import org.jspecify.annotations.NullMarked;
