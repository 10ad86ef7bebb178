package dev.cloudlock.function.spring;

import com.google.cloud.functions.Context;
import org.jspecify.annotations.Nullable;

/**
 * Reads a background event's time from the GCP adapter's {@code gcf_context} header. Kept apart from
 * {@link TickSource} so that the Functions Framework API is only needed by functions that use {@code gcf-event}.
 */
final class GcfEventTime {

    private GcfEventTime() {}

    static @Nullable Object of(@Nullable Object header) {
        if (header == null) {
            return null;
        }
        if (header instanceof Context context) {
            return context.timestamp();
        }
        throw new IllegalArgumentException("The '" + TickSource.GCF_CONTEXT_HEADER + "' header is a "
                + header.getClass().getName() + ", not a com.google.cloud.functions.Context");
    }
}
