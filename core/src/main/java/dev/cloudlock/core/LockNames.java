package dev.cloudlock.core;

/**
 * The lock-name rules every store shares, checked before any request. A store adds its own through
 * {@link dev.cloudlock.spi.LockStore#checkName}; names are never silently changed, so two names can never end up on
 * one record, and a name that reads the same as another on screen cannot be made by invisible characters at its ends
 * or by bidirectional controls.
 */
final class LockNames {

    /** Longest accepted name, in characters. */
    static final int MAX_LENGTH = 255;

    private LockNames() {}

    /**
     * Checks {@code name} against the shared rules: not {@code null}; 1 to {@value #MAX_LENGTH} characters; no
     * whitespace or invisible character (a space separator such as the no-break space, or a format character such as
     * the zero-width space) at either end; no control characters, no bidirectional controls (U+200E, U+200F, U+202A to
     * U+202E, U+2066 to U+2069) and no unpaired UTF-16 surrogate (it has no UTF-8 form, so no store can hold it)
     * anywhere.
     *
     * @throws IllegalArgumentException naming the problem
     */
    static String check(String name) {
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
        if (invisible(name.codePointAt(0)) || invisible(name.codePointBefore(name.length()))) {
            int at = invisible(name.codePointAt(0)) ? 0 : name.length() - 1;
            throw new IllegalArgumentException("Lock name must not begin or end with an invisible character (found "
                    + codePoint(name.codePointAt(at)) + " at index " + at + ")");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("Lock name must not contain control characters (found "
                        + codePoint(c) + " at index " + i + ")");
            }
            if (bidiControl(c)) {
                throw new IllegalArgumentException("Lock name must not contain bidirectional controls, which reorder"
                        + " how it is shown (found " + codePoint(c) + " at index " + i + ")");
            }
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("Lock name contains an unpaired UTF-16 surrogate (" + codePoint(c)
                        + " at index " + i + "), which has no UTF-8 form: no store can hold it");
            }
        }
        return name;
    }

    private static boolean invisible(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.SPACE_SEPARATOR
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.FORMAT;
    }

    private static boolean bidiControl(char c) {
        return c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069');
    }

    private static String codePoint(int codePoint) {
        return String.format("U+%04X", codePoint);
    }
}
