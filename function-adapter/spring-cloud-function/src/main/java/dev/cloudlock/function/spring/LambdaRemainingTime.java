package dev.cloudlock.function.spring;

import com.amazonaws.services.lambda.runtime.Context;
import java.time.Duration;
import java.util.Optional;
import org.springframework.messaging.Message;
import org.springframework.util.ClassUtils;

/**
 * The remaining time of the Lambda invocation a message comes from: Spring Cloud Function's AWS adapter passes the
 * invocation's {@link Context} in the {@value #HEADER} header. Lambda's context classes come with that adapter; without
 * them no input carries a context.
 */
final class LambdaRemainingTime {

    /** The header in which the AWS adapter passes the Lambda context ({@code AWSLambdaUtils.AWS_CONTEXT}). */
    static final String HEADER = "aws-context";

    private static final boolean ON_THE_CLASS_PATH = ClassUtils.isPresent(
            "com.amazonaws.services.lambda.runtime.Context", LambdaRemainingTime.class.getClassLoader());

    private LambdaRemainingTime() {}

    /** The invocation's remaining time, when {@code input} is a message carrying a Lambda context that reports one. */
    static Optional<Duration> of(Object input) {
        if (!ON_THE_CLASS_PATH || !(input instanceof Message<?> message)) {
            return Optional.empty();
        }
        return remaining(message.getHeaders().get(HEADER));
    }

    private static Optional<Duration> remaining(Object header) {
        return header instanceof Context context && context.getRemainingTimeInMillis() > 0
                ? Optional.of(Duration.ofMillis(context.getRemainingTimeInMillis()))
                : Optional.empty();
    }
}
