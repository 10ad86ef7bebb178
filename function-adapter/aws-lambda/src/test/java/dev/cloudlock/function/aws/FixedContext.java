package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

/** The platform's invocation context for in-process handler tests: a fixed remaining time. */
final class FixedContext implements Context {
    private final int remainingMillis;

    FixedContext(int remainingMillis) {
        this.remainingMillis = remainingMillis;
    }

    @Override
    public String getAwsRequestId() {
        return "test-request";
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/test";
    }

    @Override
    public String getLogStreamName() {
        return "test-stream";
    }

    @Override
    public String getFunctionName() {
        return "test";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:123456789012:function:test";
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 512;
    }

    @Override
    public LambdaLogger getLogger() {
        return null;
    }
}
