package dev.cloudlock.benchmarks;

import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Requests a client sent, by operation, since they were last drained. Thread-safe. */
final class RequestCounts {

    private final Map<String, Integer> counts = new TreeMap<>();

    synchronized void add(String operation) {
        counts.merge(operation, 1, Integer::sum);
    }

    /** The counts so far, which then start again from zero. */
    synchronized Map<String, Integer> drain() {
        Map<String, Integer> copy = new TreeMap<>(counts);
        counts.clear();
        return copy;
    }

    /** An AWS SDK interceptor that counts every request on the wire (each retry too) by API operation. */
    ExecutionInterceptor awsInterceptor() {
        return new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
            }
        };
    }
}
