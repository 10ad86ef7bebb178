/**
 * The cloud-neutral function guard: {@link dev.cloudlock.function.TickGuard} runs each scheduled occurrence of a job
 * at most once on any cloudlock provider, configured by {@link dev.cloudlock.function.GuardSettings}.
 */
@NullMarked
package dev.cloudlock.function;

import org.jspecify.annotations.NullMarked;
