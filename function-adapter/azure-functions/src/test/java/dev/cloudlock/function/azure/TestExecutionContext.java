package dev.cloudlock.function.azure;

import com.microsoft.azure.functions.ExecutionContext;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The invocation context the Java worker would pass: a function name, an invocation id, a logger. The context holds
 * its logger, as the worker's does: {@code java.util.logging} holds loggers only weakly, so a logger fetched by name
 * on every call may be collected between a test adding a handler to it and the guard logging.
 */
final class TestExecutionContext implements ExecutionContext {
    private final String functionName;
    private final String invocationId = UUID.randomUUID().toString();
    private final Logger logger;

    TestExecutionContext(String functionName) {
        this.functionName = functionName;
        this.logger = Logger.getLogger("Function." + functionName);
    }

    @Override
    public Logger getLogger() {
        return logger;
    }

    @Override
    public String getInvocationId() {
        return invocationId;
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }
}
