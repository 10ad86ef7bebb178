package dev.cloudlock.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Fenced writes to a job's own Cosmos DB items: the item keeps the fencing token of the newest holding that wrote it in
 * one number property ({@value #DEFAULT_PROPERTY} unless named otherwise).
 *
 * <ul>
 *   <li>{@link #patch}: one conditional patch of an existing item, its filter predicate saying the rule ({@code NOT
 *       IS_DEFINED(c.cloudlockFence) OR c.cloudlockFence <= token}, {@link FencingTokens#admits}) and its operations
 *       the user's plus {@code set /cloudlockFence token}. One request; a refusal (412) reads the item once to tell a
 *       stale token from an item that changed in between (then the patch is sent again).
 *   <li>{@link #upsert}: a whole item, created or replaced: read it, refuse an older token, then {@code replaceItem}
 *       with {@code If-Match} on the {@code _etag} read ({@code createItem} when absent); a lost race (412, 409) reads
 *       again. Two requests; a refusal costs one.
 * </ul>
 */
public final class CosmosFence {

    /** The fence property's name unless one is given. */
    public static final String DEFAULT_PROPERTY = "cloudlockFence";

    private static final int PRECONDITION_FAILED = 412;
    private static final int CONFLICT = 409;
    private static final int NOT_FOUND = 404;

    private final String property;

    private CosmosFence(String property) {
        if (!property.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(
                    "the fence property '" + property + "' must be a top-level identifier (letters, digits, _)");
        }
        this.property = property;
    }

    /** Fences kept in the property {@value #DEFAULT_PROPERTY}. */
    public static CosmosFence inProperty() {
        return new CosmosFence(DEFAULT_PROPERTY);
    }

    /** Fences kept in the top-level number property {@code property}. */
    public static CosmosFence inProperty(String property) {
        return new CosmosFence(Objects.requireNonNull(property, "property"));
    }

    /**
     * Patches the existing item {@code id} with {@code operations} (to which the fence's {@code set} is added) if its
     * fence admits {@code token}.
     *
     * @throws StaleFencingTokenException when the item holds a newer token (nothing written)
     * @throws CosmosException 404 when the item does not exist ({@link #upsert} creates one)
     */
    public <T> CosmosItemResponse<T> patch(
            CosmosContainer container,
            String id,
            PartitionKey partitionKey,
            CosmosPatchOperations operations,
            long token,
            Class<T> type) {
        operations.set("/" + property, token);
        CosmosPatchItemRequestOptions options = new CosmosPatchItemRequestOptions()
                .setFilterPredicate(
                        "FROM c WHERE NOT IS_DEFINED(c." + property + ") OR c." + property + " <= " + token);
        for (int attempt = 1; attempt <= FencingTokens.MAX_ATTEMPTS; attempt++) {
            try {
                return container.patchItem(id, partitionKey, operations, options, type);
            } catch (CosmosException e) {
                if (e.getStatusCode() != PRECONDITION_FAILED) {
                    throw e;
                }
            }
            // refused by the predicate: say by which token, unless the item changed meanwhile (then patch again)
            FencingTokens.check(
                    resource(container, id), read(container, id, partitionKey).fence(), token);
        }
        throw lostRaces(container, id, token);
    }

    /**
     * Creates or replaces the item {@code item} (its {@code id} set) with its fence property set to {@code token}, if
     * the stored item's fence admits it.
     *
     * @throws StaleFencingTokenException when the item holds a newer token (nothing written)
     */
    public CosmosItemResponse<ObjectNode> upsert(
            CosmosContainer container, ObjectNode item, PartitionKey partitionKey, long token) {
        JsonNode idNode = item.get("id");
        if (idNode == null || !idNode.isTextual()) {
            throw new IllegalArgumentException("the item has no text id");
        }
        String id = idNode.asText();
        JsonNode given = item.get(property);
        if (given != null && !(given.canConvertToLong() && given.asLong() == token)) {
            throw new IllegalArgumentException("the item already sets the fence '" + property + "' to " + given);
        }
        ObjectNode fenced = item.deepCopy().put(property, token);
        return FencingTokens.writeOnVersion(
                resource(container, id), token, () -> read(container, id, partitionKey), etag -> {
                    try {
                        return etag == null
                                ? container.createItem(fenced, partitionKey, new CosmosItemRequestOptions())
                                : container.replaceItem(
                                        fenced, id, partitionKey, new CosmosItemRequestOptions().setIfMatchETag(etag));
                    } catch (CosmosException e) {
                        if (e.getStatusCode() == PRECONDITION_FAILED || e.getStatusCode() == CONFLICT) {
                            return null;
                        }
                        throw e;
                    }
                });
    }

    /**
     * The token {@code item} holds, or null when it holds none.
     *
     * @throws NotAFencingTokenException when its fence property holds no token (text, a fraction, another type)
     */
    public @Nullable Long storedToken(JsonNode item) {
        JsonNode id = item.get("id");
        return storedToken("Cosmos DB item '" + (id == null ? "" : id.asText()) + "'", item);
    }

    private @Nullable Long storedToken(String resource, JsonNode item) {
        JsonNode value = item.get(property);
        if (value == null || value.isNull()) {
            return null;
        }
        Object stored = value.isNumber() ? value.numberValue() : value.isTextual() ? value.asText() : value.toString();
        return FencingTokens.stored(resource + ", property '" + property + "'", stored);
    }

    private FencingTokens.Seen<String> read(CosmosContainer container, String id, PartitionKey partitionKey) {
        ObjectNode item;
        try {
            item = container.readItem(id, partitionKey, ObjectNode.class).getItem();
        } catch (CosmosException e) {
            if (e.getStatusCode() == NOT_FOUND) {
                return FencingTokens.Seen.absent();
            }
            throw e;
        }
        JsonNode etag = item.get("_etag");
        return new FencingTokens.Seen<>(
                storedToken(resource(container, id), item), etag == null ? null : etag.asText());
    }

    private static String resource(CosmosContainer container, String id) {
        return "Cosmos DB container '" + container.getId() + "', item '" + id + "'";
    }

    private static LockStoreUnavailableException lostRaces(CosmosContainer container, String id, long token) {
        return new LockStoreUnavailableException(resource(container, id) + ": fenced patch with token " + token
                + " was refused " + FencingTokens.MAX_ATTEMPTS + " times while the item admitted it; retry later");
    }
}
