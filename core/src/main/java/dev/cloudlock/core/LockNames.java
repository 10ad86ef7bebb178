package dev.cloudlock.core;

/**
 * The lock-name rules every store shares. A store adds its own through {@link LockStore#checkName}; names are never
 * silently changed, so two names can never end up on one record.
 */
final class LockNames {

    /** Longest accepted name, in characters. */
    public static final int MAX_LENGTH = 255;

    private LockNames() {}

    /**
     * Checks {@code name} against the shared rules: not {@code null}, 1 to {@value #MAX_LENGTH} characters, no
     * leading or trailing whitespace, no control characters.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static String check(String name) {
        if (name == null) {
            throw new IllegalArgumentException("Lock name must not be null");
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("Lock name must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Lock name is " + name.length() + " characters long; at most "
                    + MAX_LENGTH + " are allowed: '" + name.substring(0, 40) + "...'");
        }
        if (!name.strip().equals(name)) {
            throw new IllegalArgumentException("Lock name must not begin or end with whitespace: '" + name + "'");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw new IllegalArgumentException("Lock name must not contain control characters (found U+"
                        + String.format("%04X", (int) name.charAt(i)) + " at index " + i + ")");
            }
        }
        return name;
    }
}
