package dev.cloudlock.releasecheck;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The public API of one published module, as its record in {@code <module>/api/<artifactId>.api} lists it: every
 * public type of the module's exported packages, with its public and protected constructors, methods and fields
 * (generics, modifiers, throws clauses and constant values included), as {@code javap} prints them from the compiled
 * classes without loading them, plus what a sealed type permits; sorted by type and then by line. Private and
 * package-private code, types nested in a type that is not public, and the packages a {@code module-info} does not
 * export are not in it. Annotations are not recorded. Comment lines ({@code #}) and blank lines of a record are not
 * compared.
 *
 * <p>The build runs this file with the JDK's source launcher in the {@code verify} phase of every published module
 * (see the parent pom): {@code java PublicApi.java <artifactId> <packaging> <classes dir> <record> <update>}. It
 * fails the build, listing the added and removed lines, when the compiled API differs from the record; with
 * {@code update} {@code true} it rewrites the record instead. It uses only the JDK, so that it runs before any module
 * of this repository is built.
 */
public final class PublicApi {

    /** The command that rewrites every published module's record, named in the header and in every failure. */
    static final String UPDATE_COMMAND = "./mvnw verify -DskipTests -Dcloudlock.api.update=true";

    private static final String MEMBER_INDENT = "  ";

    private PublicApi() {}

    /**
     * Checks one module's record, or rewrites it if it is not what {@link #render} writes; in a check, exits with 1 on
     * a difference, after printing it. A record that differs in its comments or the order of its lines only passes.
     *
     * @param args artifactId, packaging, classes directory, record file, and {@code true} to rewrite the record
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: java PublicApi.java <artifactId> <packaging> <classes dir> <record> <update: true|false>");
        }
        String artifactId = args[0];
        if (args[1].equals("pom")) {
            return; // a pom has no classes and no API
        }
        Path classes = Path.of(args[2]);
        Path record = Path.of(args[3]);
        boolean update = Boolean.parseBoolean(args[4]);
        SortedMap<String, SortedSet<String>> api = read(classes);
        String text = render(artifactId, api);
        if (Files.exists(record)
                && Files.readString(record, StandardCharsets.UTF_8).equals(text)) {
            return;
        }
        boolean recorded = Files.exists(record);
        List<String> differences = differences(parse(record), api);
        if (!recorded) {
            differences.add(0, "(no record yet: every type is new)");
        }
        if (update) {
            Files.createDirectories(record.toAbsolutePath().getParent());
            Files.writeString(record, text, StandardCharsets.UTF_8);
            System.out.println(
                    recorded
                            ? "[cloudlock] rewrote the public API record " + record + ":\n"
                                    + String.join("\n", differences)
                            : "[cloudlock] wrote the first public API record " + record + " (" + api.size()
                                    + " types)");
        } else if (!differences.isEmpty()) {
            // stderr: Maven shows it even with -q
            System.err.println(failure(artifactId, record, differences));
            System.exit(1);
        }
    }

    /**
     * The public API in {@code classes} (a compiled module's output directory): each public type's {@code javap} header
     * by its binary name, with the type's public and protected members.
     */
    static SortedMap<String, SortedSet<String>> read(Path classes) {
        if (!Files.isDirectory(classes)) {
            throw new IllegalArgumentException("no compiled classes in " + classes + ": compile the module first");
        }
        Set<String> exported = exportedPackages(classes);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(PublicApi::isTypeFile)
                    .filter(f -> exported == null || exported.contains(packageOf(classes, f)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, List<String>> printed = new LinkedHashMap<>();
        for (Path file : files) {
            printed.put(binaryName(classes, file), javap(file));
        }
        SortedMap<String, SortedSet<String>> api = new TreeMap<>();
        for (var type : printed.entrySet()) {
            if (isPublicType(type.getKey(), printed)) {
                List<String> lines = type.getValue();
                SortedSet<String> members = new TreeSet<>();
                members.add(sealed(lines.get(0), permittedSubclasses(classes, type.getKey())));
                for (String member : lines.subList(1, lines.size())) {
                    members.add(MEMBER_INDENT + member);
                }
                api.put(type.getKey(), members);
            }
        }
        return api;
    }

    /** The record's text: a header naming the command that writes it, then each type and its members. */
    static String render(String artifactId, SortedMap<String, SortedSet<String>> api) {
        StringBuilder text = new StringBuilder();
        text.append("# The public API of ")
                .append(artifactId)
                .append(": checked by every `./mvnw verify`; after an intended change rewrite it with\n")
                .append("# ")
                .append(UPDATE_COMMAND)
                .append(" and commit it with the change.\n");
        if (api.isEmpty()) {
            text.append("# (no public types)\n");
        }
        for (SortedSet<String> type : api.values()) {
            text.append('\n');
            for (String line : headerFirst(type)) {
                text.append(line).append('\n');
            }
        }
        return text.toString();
    }

    /** A record read back: its types by binary name, as {@link #read} returns them; empty if there is no record. */
    static SortedMap<String, SortedSet<String>> parse(Path record) throws IOException {
        SortedMap<String, SortedSet<String>> api = new TreeMap<>();
        if (!Files.exists(record)) {
            return api;
        }
        SortedSet<String> type = null;
        for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (!line.startsWith(MEMBER_INDENT)) {
                type = new TreeSet<>();
                api.put(typeName(line), type);
            } else if (type == null) {
                throw new IllegalArgumentException(record + ": a member before any type: " + line);
            }
            type.add(line);
        }
        return api;
    }

    /**
     * What {@code actual} has that {@code recorded} does not ({@code +}) and the reverse ({@code -}), grouped by type
     * in the order of their names; empty when they are the same.
     */
    static List<String> differences(
            SortedMap<String, SortedSet<String>> recorded, SortedMap<String, SortedSet<String>> actual) {
        Set<String> types = new TreeSet<>(recorded.keySet());
        types.addAll(actual.keySet());
        List<String> differences = new ArrayList<>();
        for (String type : types) {
            SortedSet<String> before = recorded.getOrDefault(type, new TreeSet<>());
            SortedSet<String> after = actual.getOrDefault(type, new TreeSet<>());
            List<String> lines = new ArrayList<>();
            for (String line : headerFirst(before)) {
                if (!after.contains(line)) {
                    lines.add("- " + line.strip());
                }
            }
            for (String line : headerFirst(after)) {
                if (!before.contains(line)) {
                    lines.add("+ " + line.strip());
                }
            }
            if (!lines.isEmpty()) {
                differences.add(type + (before.isEmpty() ? " (new type)" : after.isEmpty() ? " (removed type)" : ""));
                lines.forEach(line -> differences.add(MEMBER_INDENT + line));
            }
        }
        return differences;
    }

    /** The build's error message: what differs and how to record it. */
    static String failure(String artifactId, Path record, List<String> differences) {
        return "[cloudlock] The public API of " + artifactId + " differs from its record " + record
                + " (+ compiled, not recorded; - recorded, no longer compiled):\n"
                + String.join("\n", differences)
                + "\nIf the change is intended, rewrite the record and commit it with the change: " + UPDATE_COMMAND
                + " -pl :" + artifactId + " -am (or, for every published module, without -pl and -am).";
    }

    /** The type's header (its only line without member indentation) first, then its members in order. */
    private static List<String> headerFirst(SortedSet<String> type) {
        List<String> lines = new ArrayList<>();
        type.stream().filter(l -> !l.startsWith(MEMBER_INDENT)).forEach(lines::add);
        type.stream().filter(l -> l.startsWith(MEMBER_INDENT)).forEach(lines::add);
        return lines;
    }

    /**
     * A type is public API if its class file is public (a {@code protected} nested type is public in its class file;
     * a private or package-private one is not) and so is every type it is nested in.
     */
    private static boolean isPublicType(String binaryName, Map<String, List<String>> printed) {
        List<String> lines = printed.get(binaryName);
        if (lines == null || !lines.get(0).startsWith("public ")) {
            return false;
        }
        int nesting = binaryName.lastIndexOf('$');
        return nesting < 0 || isPublicType(binaryName.substring(0, nesting), printed);
    }

    /** {@code javap}'s lines for one class file: its header, then its members, without the trailing semicolons. */
    private static List<String> javap(Path classFile) {
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new IllegalStateException("this JDK has no javap (the jdk.jdeps module)"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status =
                javap.run(new PrintWriter(out), new PrintWriter(err), "-protected", "-constants", classFile.toString());
        if (status != 0) {
            throw new IllegalStateException("javap failed on " + classFile + ": " + err);
        }
        List<String> lines = new ArrayList<>();
        for (String line : out.toString().split("\\R")) {
            if (line.isBlank() || line.startsWith("Compiled from ") || line.equals("}")) {
                continue;
            }
            String trimmed = line.strip();
            if (trimmed.endsWith(" {")) {
                trimmed = trimmed.substring(0, trimmed.length() - 2);
            } else if (trimmed.endsWith(";")) {
                trimmed = trimmed.substring(0, trimmed.length() - 1);
            }
            lines.add(trimmed);
        }
        if (lines.isEmpty()) {
            throw new IllegalStateException("javap printed nothing for " + classFile);
        }
        return lines;
    }

    /**
     * {@code header} with {@code sealed} and its {@code permits} clause when {@code permitted} is not empty: this
     * {@code javap} prints neither, but whether users may implement a type is part of its API.
     */
    private static String sealed(String header, List<String> permitted) {
        if (permitted.isEmpty() || header.contains(" permits ")) {
            return header; // not sealed, or a javap that prints it itself
        }
        String keyword = header.contains(" interface ") ? " interface " : " class ";
        int at = header.indexOf(keyword);
        return header.substring(0, at) + " sealed" + header.substring(at) + " permits " + String.join(", ", permitted);
    }

    /**
     * The binary names in the {@code PermittedSubclasses} attribute of a class file (JVMS 4.7.31), sorted; empty for a
     * type that is not sealed. Reads the constant pool and skips the fields and methods to reach the attribute.
     */
    static List<String> permittedSubclasses(Path classes, String binaryName) {
        Path file = classes.resolve(binaryName.replace('.', '/') + ".class");
        try (var in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            in.readInt(); // magic
            in.readInt(); // minor and major version
            int poolSize = in.readUnsignedShort();
            String[] utf8 = new String[poolSize];
            int[] classNames = new int[poolSize];
            for (int i = 1; i < poolSize; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> classNames[i] = in.readUnsignedShort();
                    case 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 15 -> in.skipNBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> throw new IllegalStateException(file + ": unknown constant pool tag " + tag);
                }
            }
            in.skipNBytes(6); // access flags, this class, super class
            in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
            for (int members = 0; members < 2; members++) { // fields, then methods
                int count = in.readUnsignedShort();
                for (int i = 0; i < count; i++) {
                    in.skipNBytes(6); // access flags, name, descriptor
                    skipAttributes(in);
                }
            }
            int attributes = in.readUnsignedShort();
            for (int i = 0; i < attributes; i++) {
                String name = utf8[in.readUnsignedShort()];
                int length = in.readInt();
                if (!"PermittedSubclasses".equals(name)) {
                    in.skipNBytes(length);
                    continue;
                }
                List<String> permitted = new ArrayList<>();
                int count = in.readUnsignedShort();
                for (int c = 0; c < count; c++) {
                    permitted.add(utf8[classNames[in.readUnsignedShort()]].replace('/', '.'));
                }
                Collections.sort(permitted);
                return permitted;
            }
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int count = in.readUnsignedShort();
        for (int i = 0; i < count; i++) {
            in.skipNBytes(2); // name
            in.skipNBytes(in.readInt());
        }
    }

    /**
     * The packages {@code classes/module-info.class} exports to every module, or {@code null} (all of them) when the
     * module has no {@code module-info}.
     */
    private static Set<String> exportedPackages(Path classes) {
        Path moduleInfo = classes.resolve("module-info.class");
        if (!Files.exists(moduleInfo)) {
            return null;
        }
        Set<String> exported = new HashSet<>();
        for (String line : javap(moduleInfo)) {
            String[] words = line.split("\\s+");
            if (words.length == 2 && words[0].equals("exports")) {
                exported.add(words[1]);
            }
        }
        return exported;
    }

    private static boolean isTypeFile(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".class") && !name.equals("module-info.class") && !name.equals("package-info.class");
    }

    private static String binaryName(Path classes, Path classFile) {
        String relative = classes.relativize(classFile)
                .toString()
                .replace(classFile.getFileSystem().getSeparator(), ".");
        return relative.substring(0, relative.length() - ".class".length());
    }

    private static String packageOf(Path classes, Path classFile) {
        String name = binaryName(classes, classFile);
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    /** The binary name in a type header: the word after class or interface, up to its type parameters. */
    private static String typeName(String header) {
        String[] words = header.split("\\s+");
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals("class") || words[i].equals("interface")) {
                String name = words[i + 1];
                int generics = name.indexOf('<');
                return generics < 0 ? name : name.substring(0, generics);
            }
        }
        throw new IllegalArgumentException("not a type header: " + header);
    }
}
