package dev.cloudlock.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link CloudLockStartupException} into Spring Boot's startup failure report: what is wrong with the lock
 * store's setup and how to fix it, instead of a stack trace.
 */
public class CloudLockFailureAnalyzer extends AbstractFailureAnalyzer<CloudLockStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CloudLockStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
