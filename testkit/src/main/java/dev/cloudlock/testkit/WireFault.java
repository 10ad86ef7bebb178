package dev.cloudlock.testkit;

/**
 * A fault on the wire between a store's SDK and its server, as {@link WireFaultProxy} (HTTP) and a gRPC interceptor
 * inject it. Two of them let the request reach the store first, so it is applied and only its answer goes wrong: the
 * ambiguous outcome a client must resolve by its owner token. The others keep it from the store.
 */
public enum WireFault {
    /** Forwarded and applied; the answer is lost: the connection closes unanswered (gRPC: {@code UNAVAILABLE}). */
    RESPONSE_LOST,
    /** Forwarded and applied; the client gets a server error instead (HTTP 500, gRPC {@code INTERNAL}). */
    ERROR_AFTER_FORWARD,
    /**
     * Not forwarded; the client is told to slow down in the store's own words: DynamoDB {@code ThrottlingException},
     * S3 {@code SlowDown}, Cosmos DB 429, Blob Storage {@code ServerBusy}, gRPC {@code RESOURCE_EXHAUSTED}.
     */
    THROTTLED,
    /** Not forwarded; HTTP 503 (gRPC {@code UNAVAILABLE}): the store is down. */
    UNAVAILABLE,
    /** Not forwarded and never answered: the client waits until its own deadline. */
    NO_ANSWER
}
