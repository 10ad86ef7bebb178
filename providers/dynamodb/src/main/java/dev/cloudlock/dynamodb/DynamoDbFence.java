package dev.cloudlock.dynamodb;

import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Fenced writes to a job's own DynamoDB items: the item keeps the fencing token of the newest holding that wrote it in
 * one number attribute ({@value #DEFAULT_ATTRIBUTE} unless named otherwise), and every fenced {@code PutItem} or
 * {@code UpdateItem} is conditioned on it being absent or not newer than the writer's token
 * ({@link FencingTokens#admits}) and sets it to the token — one request, the same as the unfenced write.
 *
 * <p>The request's own {@code ConditionExpression}, {@code ExpressionAttributeNames} and
 * {@code ExpressionAttributeValues} are kept: the fence's condition is joined to the user's with {@code AND}, and its
 * placeholders ({@code #cloudlockFence}, {@code :cloudlockFence}) are added beside the user's (a request that already
 * uses one of them for something else is an {@link IllegalArgumentException}). An {@code UpdateItem}'s
 * {@code UpdateExpression} gains {@code #cloudlockFence = :cloudlockFence} in its {@code SET} clause (one is added when
 * it has none). Requests in the legacy {@code Expected} / {@code AttributeUpdates} form are refused.
 *
 * <p>When the condition fails, the request asked for the item as it was ({@code ReturnValuesOnConditionCheckFailure
 * ALL_OLD}): if its fence is newer than the token, the fence refused the write and {@link #putItem} / {@link
 * #updateItem} throw {@link StaleFencingTokenException}, and {@link NotAFencingTokenException} if it holds no token
 * at all (a string, a fraction, a number outside the token's range); otherwise the user's own condition failed, and the
 * SDK's {@link ConditionalCheckFailedException} is rethrown unchanged, the item it saw attached. (On a backend that
 * does not return the item, dynalite, a refused write reads the item's fence once to tell: an {@code UpdateItem} by its
 * key, a {@code PutItem} by the key the table's {@code DescribeTable} names.)
 */
public final class DynamoDbFence {

    /** The fence attribute's name unless one is given. */
    public static final String DEFAULT_ATTRIBUTE = "cloudlockFence";

    static final String NAME = "#cloudlockFence";
    static final String VALUE = ":cloudlockFence";
    private static final String CONDITION = "(attribute_not_exists(" + NAME + ") OR " + NAME + " <= " + VALUE + ")";
    /** {@code SET} as a clause keyword: not part of a placeholder ({@code #set}, {@code :set}) or a longer word. */
    private static final Pattern SET_CLAUSE = Pattern.compile("(?i)(?<![#:\\w])SET(?![\\w])");

    private final String attribute;

    private DynamoDbFence(String attribute) {
        if (attribute.isBlank()) {
            throw new IllegalArgumentException("the fence attribute's name is blank");
        }
        this.attribute = attribute;
    }

    /** Fences kept in {@value #DEFAULT_ATTRIBUTE}. */
    public static DynamoDbFence inAttribute() {
        return new DynamoDbFence(DEFAULT_ATTRIBUTE);
    }

    /** Fences kept in the number attribute {@code attribute}. */
    public static DynamoDbFence inAttribute(String attribute) {
        return new DynamoDbFence(Objects.requireNonNull(attribute, "attribute"));
    }

    /** The fence attribute's name. */
    public String attribute() {
        return attribute;
    }

    /** {@code request} conditioned on the fence and setting it to {@code token}; nothing is sent. */
    public PutItemRequest fence(PutItemRequest request, long token) {
        refuseLegacy(request.hasExpected(), "Expected");
        Map<String, AttributeValue> item = new HashMap<>(request.item());
        AttributeValue tokenValue = number(token);
        AttributeValue given = item.putIfAbsent(attribute, tokenValue);
        if (given != null && !given.equals(tokenValue)) {
            throw new IllegalArgumentException("the item already sets the fence attribute '" + attribute + "' to "
                    + given + ", not to the token " + token);
        }
        return request.toBuilder()
                .item(item)
                .conditionExpression(and(request.conditionExpression()))
                .expressionAttributeNames(
                        names(request.hasExpressionAttributeNames() ? request.expressionAttributeNames() : null))
                .expressionAttributeValues(values(
                        request.hasExpressionAttributeValues() ? request.expressionAttributeValues() : null, token))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    /** {@code request} conditioned on the fence and setting it to {@code token}; nothing is sent. */
    public UpdateItemRequest fence(UpdateItemRequest request, long token) {
        refuseLegacy(request.hasExpected(), "Expected");
        refuseLegacy(request.hasAttributeUpdates(), "AttributeUpdates");
        return request.toBuilder()
                .updateExpression(setFence(request.updateExpression()))
                .conditionExpression(and(request.conditionExpression()))
                .expressionAttributeNames(
                        names(request.hasExpressionAttributeNames() ? request.expressionAttributeNames() : null))
                .expressionAttributeValues(values(
                        request.hasExpressionAttributeValues() ? request.expressionAttributeValues() : null, token))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    /**
     * Sends {@code request} fenced by {@code token}.
     *
     * @throws StaleFencingTokenException when the item holds a newer token (nothing was written)
     * @throws NotAFencingTokenException when the item's fence is no token (nothing was written)
     * @throws ConditionalCheckFailedException when the request's own condition failed
     */
    public PutItemResponse putItem(DynamoDbClient client, PutItemRequest request, long token) {
        try {
            return client.putItem(fence(request, token));
        } catch (ConditionalCheckFailedException failed) {
            Map<String, AttributeValue> seen =
                    failed.hasItem() && !failed.item().isEmpty()
                            ? failed.item()
                            : readFence(client, request.tableName(), keyOf(client, request));
            throw refusal(failed, seen, request.tableName(), token);
        }
    }

    /**
     * Sends {@code request} fenced by {@code token}.
     *
     * @throws StaleFencingTokenException when the item holds a newer token (nothing was written)
     * @throws NotAFencingTokenException when the item's fence is no token (nothing was written)
     * @throws ConditionalCheckFailedException when the request's own condition failed
     */
    public UpdateItemResponse updateItem(DynamoDbClient client, UpdateItemRequest request, long token) {
        try {
            return client.updateItem(fence(request, token));
        } catch (ConditionalCheckFailedException failed) {
            Map<String, AttributeValue> seen =
                    failed.hasItem() && !failed.item().isEmpty()
                            ? failed.item()
                            : readFence(client, request.tableName(), request.key());
            throw refusal(failed, seen, request.tableName(), token);
        }
    }

    /** The item's fence, read when the failed condition did not return the item (dynalite). */
    private Map<String, AttributeValue> readFence(
            DynamoDbClient client, String tableName, Map<String, AttributeValue> key) {
        return client.getItem(b -> b.tableName(tableName)
                        .key(key)
                        .consistentRead(true)
                        .projectionExpression(NAME)
                        .expressionAttributeNames(Map.of(NAME, attribute)))
                .item();
    }

    /** The key of a put's item, from the table's key schema: one DescribeTable, only where the item is not returned. */
    private static Map<String, AttributeValue> keyOf(DynamoDbClient client, PutItemRequest request) {
        Map<String, AttributeValue> key = new HashMap<>();
        client.describeTable(b -> b.tableName(request.tableName()))
                .table()
                .keySchema()
                .forEach(k -> key.put(k.attributeName(), request.item().get(k.attributeName())));
        return key;
    }

    /**
     * What a failed fenced write means: {@link StaleFencingTokenException} when {@code item} (the item as the failed
     * condition saw it) holds a token newer than {@code token}, {@link NotAFencingTokenException} when its fence is no
     * token, else {@code failed} itself (the user's condition).
     */
    public RuntimeException refusal(
            ConditionalCheckFailedException failed,
            @Nullable Map<String, AttributeValue> item,
            String tableName,
            long token) {
        Long stored;
        try {
            stored = item == null ? null : storedToken("DynamoDB table '" + tableName + "'", item);
        } catch (NotAFencingTokenException notAToken) {
            notAToken.initCause(failed);
            return notAToken;
        }
        if (FencingTokens.admits(stored, token)) {
            return failed;
        }
        StaleFencingTokenException stale =
                new StaleFencingTokenException("DynamoDB table '" + tableName + "'", token, stored);
        stale.initCause(failed);
        return stale;
    }

    /**
     * The token {@code item} holds, or null when it holds none.
     *
     * @throws NotAFencingTokenException when its fence attribute holds no token (a string, a fraction, a number
     *     outside the token's range, another type)
     */
    public @Nullable Long storedToken(Map<String, AttributeValue> item) {
        return storedToken("the item", item);
    }

    private @Nullable Long storedToken(String resource, Map<String, AttributeValue> item) {
        AttributeValue value = item.get(attribute);
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            return null;
        }
        Object stored =
                value.n() != null ? new BigDecimal(value.n()) : value.s() != null ? value.s() : value.toString();
        return FencingTokens.stored(resource + ", attribute '" + attribute + "'", stored);
    }

    private static AttributeValue number(long token) {
        return AttributeValue.fromN(Long.toString(token));
    }

    private static String and(@Nullable String userCondition) {
        return userCondition == null || userCondition.isBlank()
                ? CONDITION
                : "(" + userCondition + ") AND " + CONDITION;
    }

    static String setFence(@Nullable String updateExpression) {
        String assignment = NAME + " = " + VALUE;
        if (updateExpression == null || updateExpression.isBlank()) {
            return "SET " + assignment;
        }
        Matcher set = SET_CLAUSE.matcher(updateExpression);
        if (set.find()) {
            return updateExpression.substring(0, set.end()) + " " + assignment + ","
                    + updateExpression.substring(set.end());
        }
        return updateExpression + " SET " + assignment;
    }

    private Map<String, String> names(@Nullable Map<String, String> userNames) {
        Map<String, String> names = userNames == null ? new HashMap<>() : new HashMap<>(userNames);
        String given = names.putIfAbsent(NAME, attribute);
        if (given != null && !given.equals(attribute)) {
            throw new IllegalArgumentException("the request uses the placeholder " + NAME + " for '" + given
                    + "'; the fence needs it for its attribute '" + attribute + "'");
        }
        return names;
    }

    private static Map<String, AttributeValue> values(@Nullable Map<String, AttributeValue> userValues, long token) {
        Map<String, AttributeValue> values = userValues == null ? new HashMap<>() : new HashMap<>(userValues);
        if (values.putIfAbsent(VALUE, number(token)) != null) {
            throw new IllegalArgumentException(
                    "the request uses the placeholder " + VALUE + ", which the fence needs for its token");
        }
        return values;
    }

    private static void refuseLegacy(boolean used, String parameter) {
        if (used) {
            throw new IllegalArgumentException("a fenced request is written with expressions; this one uses the legacy "
                    + parameter + " parameter, which DynamoDB does not combine with a ConditionExpression");
        }
    }
}
