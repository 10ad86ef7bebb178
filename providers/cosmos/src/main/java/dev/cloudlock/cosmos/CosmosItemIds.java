package dev.cloudlock.cosmos;

/**
 * Lock name to Cosmos DB item id, injectively: {@code %} becomes {@code %25} and each character Cosmos DB forbids in
 * an id ({@code /}, {@code \}, {@code ?}, {@code #}) becomes its {@code %XX} escape; every other character stays, so
 * ids are readable and two names never share an item. Ids are case-sensitive in Cosmos DB, so {@code Job} and
 * {@code job} stay two locks. A name of at most 255 characters encodes to at most 765 UTF-8 bytes, within Cosmos
 * DB's limit of 1,023 bytes per id.
 */
final class CosmosItemIds {

    private CosmosItemIds() {}

    /** The item id of {@code name}. */
    static String encode(String name) {
        StringBuilder id = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case '%' -> id.append("%25");
                case '/' -> id.append("%2F");
                case '\\' -> id.append("%5C");
                case '?' -> id.append("%3F");
                case '#' -> id.append("%23");
                default -> id.append(c);
            }
        }
        return id.toString();
    }
}
