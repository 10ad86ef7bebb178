package dev.cloudlock.firestore;

/**
 * Maps lock names to Firestore document ids, injectively: two different names never share a document, and every id
 * is one Firestore accepts (no {@code /}, not {@code .} or {@code ..}, not of the reserved form {@code __.*__}, valid
 * UTF-8, at most 1,500 bytes).
 *
 * <p>The encoding escapes with {@code %} and two upper-case hex digits: {@code %} itself and {@code /} always; the
 * dots of a name that is exactly {@code .} or {@code ..}; the first {@code _} of a name starting with {@code __}.
 * Every other character is kept, so ids stay readable in the console ({@code reports/nightly} becomes
 * {@code reports%2Fnightly}). Because {@code %} is always escaped, replacing each {@code %XX} by its character gives
 * the name back: the encoding has an inverse, so it is injective. A name of at most 255 UTF-16 characters encodes to
 * at most 765 bytes.
 */
public final class FirestoreDocumentIds {

    private FirestoreDocumentIds() {}

    /** The document id of lock {@code name}. */
    public static String encode(String name) {
        if (name.equals(".") || name.equals("..")) {
            return name.replace(".", "%2E");
        }
        StringBuilder id = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                id.append("%25");
            } else if (c == '/') {
                id.append("%2F");
            } else if (c == '_' && i == 0 && name.startsWith("__")) {
                id.append("%5F");
            } else {
                id.append(c);
            }
        }
        return id.toString();
    }
}
