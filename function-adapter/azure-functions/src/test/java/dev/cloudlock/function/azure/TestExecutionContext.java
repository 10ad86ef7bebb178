package dev.cloudlock.function.azure;

import com.microsoft.azure.functions.ExecutionContext;
import java.util.UUID;
import java.util.logging.Logger;

/** The invocation context the Java worker would pass: a function name, an invocation id, a logger. */
final class TestExecutionContext implements ExecutionContext {
    private final String functionName;
    private final String invocationId = UUID.randomUUID().toString();

    TestExecutionContext(String functionName) {
        this.functionName = functionName;
    }

    @Override
    public Logger getLogger() {
        return Logger.getLogger("Function." + functionName);
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
