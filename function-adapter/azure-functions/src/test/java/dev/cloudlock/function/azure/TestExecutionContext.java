package dev.cloudlock.function.azure;

import com.microsoft.azure.functions.ExecutionContext;
import java.util.UUID;
import java.util.logging.Logger;

/** The invocation context the Java worker would pass: a function name, an invocation id, a logger. */
final class TestExecutionContext implements ExecutionContext {
    private final String functionName;
    private final String invocationId = UUID.randomUUID().toString();
    // held, as the worker holds its logger: the LogManager keeps loggers only weakly, so a logger looked up again after
    // a collection is a new one, without the handlers a test added
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
