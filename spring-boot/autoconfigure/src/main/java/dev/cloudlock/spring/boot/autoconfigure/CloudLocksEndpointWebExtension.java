package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@link CloudLocksEndpoint} over HTTP, with status codes a script can rely on: 200 with the answer; 400 for a
 * parameter the endpoint refuses (a page size or summary limit out of range, a malformed page token or lock name);
 * 404 for a lock the store has no record of, on every operation, and for a job it has not; 409 for a release a
 * condition refused (the fence moved on, the record kept changing); 503 when the store failed. Every answer but a
 * 200 has the body {@link AdminAnswers.Problem} (the errors of {@code cloudlock --json}, without the command's exit
 * code), and the release answers its {@link AdminAnswers.Repair} with its 404 or 409.
 */
@EndpointWebExtension(endpoint = CloudLocksEndpoint.class)
public class CloudLocksEndpointWebExtension {

    /** HTTP 409: a condition refused the request. */
    static final int STATUS_CONFLICT = 409;

    private final CloudLocksEndpoint endpoint;

    /** The HTTP side of {@code endpoint}. */
    public CloudLocksEndpointWebExtension(CloudLocksEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * {@link CloudLocksEndpoint#locks}, or 400 for a page size, summary limit, token or job name it refuses, or 404
     * with a body when {@code occurrences} names no job the store has, or 503.
     */
    @ReadOperation
    public WebEndpointResponse<Object> locks(
            @Nullable String pageToken,
            @Nullable String pageSize,
            @Nullable String summaryLimit,
            @Nullable String occurrences) {
        return answer(() -> {
            CloudLocksEndpoint.Answer page = endpoint.locks(
                    pageToken, number(pageSize, "pageSize"), number(summaryLimit, "summaryLimit"), occurrences);
            return page == null
                    ? problem(
                            AdminAnswers.Problem.NO_SUCH_JOB,
                            "The store has no job '" + occurrences + "': no record of it and no occurrence record '"
                                    + occurrences + "@<tick>'",
                            WebEndpointResponse.STATUS_NOT_FOUND)
                    : new WebEndpointResponse<>(page);
        });
    }

    /** {@link CloudLocksEndpoint#lock}, or 404 with a body when the store has no record of it, or 400, or 503. */
    @ReadOperation
    public WebEndpointResponse<Object> lock(@Selector String name) {
        return answer(() -> {
            CloudLocksEndpoint.Answer lock = endpoint.lock(name);
            return lock == null ? noSuchLock(name) : new WebEndpointResponse<>(lock);
        });
    }

    /**
     * {@link CloudLocksEndpoint#release}: 200 when released or no longer held, 409 when a condition refused it, 404
     * when the store has no record of the lock, each with the release's outcome; or 400, or 503.
     */
    @WriteOperation
    public WebEndpointResponse<Object> release(@Selector String name, @Nullable String fence) {
        return answer(() -> {
            if (fence == null) {
                throw new IllegalArgumentException("fence is required: send the holding's fencing token, as in"
                        + " {\"fence\": 73} (GET /actuator/cloudlocks/" + name + " shows it)");
            }
            CloudLocksEndpoint.Answer answer = endpoint.release(name, whole(fence, "fence"));
            AdminAnswers.Repair release = (AdminAnswers.Repair) answer.body();
            if (release.outcome().equals(LockAdmin.ReleaseResult.Outcome.NO_SUCH_LOCK.name())
                    || release.outcome().equals(LockAdmin.ReleaseResult.Outcome.NO_SUCH_FENCE.name())) {
                return new WebEndpointResponse<>(answer, WebEndpointResponse.STATUS_NOT_FOUND);
            }
            return new WebEndpointResponse<>(
                    answer, release.refused() ? STATUS_CONFLICT : WebEndpointResponse.STATUS_OK);
        });
    }

    /**
     * A query parameter given as text (so that one that is no number is answered here, not by Spring's generic 400),
     * as an int; null when not given.
     */
    private static @Nullable Integer number(@Nullable String value, String parameter) {
        if (value == null) {
            return null;
        }
        long number = whole(value, parameter);
        if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(parameter + " is out of range, was '" + value + "'");
        }
        return (int) number;
    }

    private static long whole(String value, String parameter) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(parameter + " must be a whole number, was '" + value + "'");
        }
    }

    private static WebEndpointResponse<Object> noSuchLock(String name) {
        return problem(
                AdminAnswers.Problem.NO_SUCH_LOCK,
                "The store has no record of the lock '" + name + "'",
                WebEndpointResponse.STATUS_NOT_FOUND);
    }

    private static WebEndpointResponse<Object> problem(String error, @Nullable String message, int status) {
        return new WebEndpointResponse<>(
                new CloudLocksEndpoint.Answer(new AdminAnswers.Problem(error, message)), status);
    }

    private static WebEndpointResponse<Object> answer(Supplier<WebEndpointResponse<Object>> operation) {
        try {
            return operation.get();
        } catch (IllegalArgumentException e) {
            return problem(AdminAnswers.Problem.BAD_REQUEST, e.getMessage(), WebEndpointResponse.STATUS_BAD_REQUEST);
        } catch (LockStoreException e) {
            return problem(
                    AdminAnswers.Problem.STORE_ERROR, e.getMessage(), WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }
}
