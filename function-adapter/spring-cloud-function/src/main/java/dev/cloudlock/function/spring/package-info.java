/**
 * The function guard for Spring Cloud Function: per-function {@code cloudlock.functions.*} properties, the explicit
 * decorator {@link dev.cloudlock.function.spring.GuardedFunctions} and a {@code FunctionAroundWrapper}.
 */
@NullMarked
package dev.cloudlock.function.spring;

import org.jspecify.annotations.NullMarked;
