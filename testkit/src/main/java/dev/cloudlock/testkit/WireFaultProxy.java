package dev.cloudlock.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between a store's real SDK and its server (an emulator), which injects the
 * {@link WireFaults} it is given: the SDK is pointed at {@link #url()} instead of the server. It reads each request
 * whole, decides its fate, and forwards it (or not) on a connection of its own to the server; answers it makes up are
 * in the store's own error format ({@link Store}), so the SDK classifies and retries them as it would the real ones.
 *
 * <p>With TLS ({@link #https}), it presents the certificate of a key store it is given and connects to the server over
 * TLS, trusting what the JVM's default trust store trusts. A request sent with {@code Expect: 100-continue} is told to
 * continue by the proxy itself and forwarded without the expectation. Close it to close every connection.
 */
public final class WireFaultProxy implements AutoCloseable {

    /** How a store speaks HTTP: which requests write, and its own words for the errors the proxy makes up. */
    public enum Store {
        /** DynamoDB's JSON protocol: every request is a {@code POST}; {@code X-Amz-Target} names the operation. */
        DYNAMODB,
        /** S3's REST protocol: writes are {@code PUT}, {@code POST} and {@code DELETE}; errors are XML. */
        S3,
        /** Cosmos DB's gateway protocol: writes go to {@code /docs}; queries are {@code POST}s marked as queries. */
        COSMOS,
        /**
         * Blob Storage's REST protocol: writes are {@code PUT} and {@code DELETE}; errors are XML with a code header.
         */
        AZURE_BLOB,
        /**
         * Table Storage's REST protocol: writes are {@code POST} (insert), {@code PUT}, {@code PATCH}, {@code MERGE}
         * and {@code DELETE}; errors are OData JSON with a code header.
         */
        AZURE_TABLE,
        /**
         * Datastore's HTTP protocol: every request is a {@code POST} of a protocol buffer to
         * {@code /v1/projects/<project>:<method>}; writes are {@code :commit}; errors are a {@code google.rpc.Status}
         * protocol buffer.
         */
        DATASTORE;

        private static final Set<String> DYNAMODB_WRITES =
                Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems");

        boolean isWrite(Message request) {
            String method = request.method();
            return switch (this) {
                case DYNAMODB -> {
                    String target = request.header("X-Amz-Target");
                    yield target != null && DYNAMODB_WRITES.contains(target.substring(target.indexOf('.') + 1));
                }
                case S3 -> Set.of("PUT", "POST", "DELETE").contains(method);
                case COSMOS ->
                    Set.of("POST", "PUT", "PATCH", "DELETE").contains(method)
                            && request.target().contains("/docs")
                            && !"true".equalsIgnoreCase(request.header("x-ms-documentdb-isquery"));
                case AZURE_BLOB -> Set.of("PUT", "DELETE").contains(method);
                case AZURE_TABLE ->
                    Set.of("POST", "PUT", "PATCH", "MERGE", "DELETE").contains(method);
                case DATASTORE -> request.target().endsWith(":commit");
            };
        }

        /** The answer to a request that met {@code fault} and gets one: throttled, unavailable, or a server error. */
        byte[] answer(WireFault fault, Duration serverTimeShift) {
            int status = switch (fault) {
                case THROTTLED -> this == DYNAMODB ? 400 : this == COSMOS || this == DATASTORE ? 429 : 503;
                case UNAVAILABLE -> 503;
                default -> 500;
            };
            String code = switch (fault) {
                case THROTTLED ->
                    switch (this) {
                        case DYNAMODB -> "ThrottlingException";
                        case S3 -> "SlowDown";
                        case COSMOS -> "TooManyRequests";
                        case AZURE_BLOB, AZURE_TABLE -> "ServerBusy";
                        case DATASTORE -> "RESOURCE_EXHAUSTED";
                    };
                case UNAVAILABLE ->
                    switch (this) {
                        case AZURE_BLOB, AZURE_TABLE -> "ServerBusy";
                        case DATASTORE -> "UNAVAILABLE";
                        default -> "ServiceUnavailable";
                    };
                default ->
                    switch (this) {
                        case DYNAMODB, COSMOS -> "InternalServerError";
                        case DATASTORE -> "INTERNAL";
                        default -> "InternalError";
                    };
            };
            String message = "injected by WireFaultProxy: " + fault;
            List<String> headers = new ArrayList<>();
            headers.add("Date: " + httpDate(serverTimeShift));
            if (this == DATASTORE) {
                headers.add("Content-Type: application/x-protobuf");
                return new Message("HTTP/1.1 " + status + " " + code, headers, rpcStatus(code, message)).bytes();
            }
            String body;
            switch (this) {
                case DYNAMODB -> {
                    headers.add("Content-Type: application/x-amz-json-1.0");
                    headers.add("x-amzn-RequestId: wire-fault");
                    body = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + code + "\",\"message\":\"" + message
                            + "\"}";
                }
                case COSMOS -> {
                    headers.add("Content-Type: application/json");
                    if (fault == WireFault.THROTTLED) {
                        headers.add("x-ms-retry-after-ms: 20");
                    }
                    body = "{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}";
                }
                case AZURE_TABLE -> {
                    headers.add("Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
                    headers.add("x-ms-error-code: " + code);
                    body = "{\"odata.error\":{\"code\":\"" + code + "\",\"message\":{\"lang\":\"en-US\",\"value\":\""
                            + message + "\"}}}";
                }
                default -> {
                    headers.add("Content-Type: application/xml");
                    if (this == AZURE_BLOB) {
                        headers.add("x-ms-error-code: " + code);
                    }
                    body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>"
                            + message + "</Message></Error>";
                }
            }
            return new Message("HTTP/1.1 " + status + " " + code, headers, body.getBytes(StandardCharsets.UTF_8))
                    .bytes();
        }

        /**
         * A {@code google.rpc.Status} protocol buffer: field 1 the canonical code's number (of {@code code}'s name),
         * field 2 the message.
         */
        private static byte[] rpcStatus(String code, String message) {
            int number = switch (code) {
                case "RESOURCE_EXHAUSTED" -> 8;
                case "UNAVAILABLE" -> 14;
                default -> 13;
            };
            byte[] text = message.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0x08);
            out.write(number);
            out.write(0x12);
            out.write(text.length); // the messages here are shorter than 128 bytes: a one-byte length
            out.write(text, 0, text.length);
            return out.toByteArray();
        }

        /** The answer with the store's clock shifted: its {@code Date}, and Cosmos DB's {@code _ts} on items. */
        Message shift(Message response, Duration shift) {
            if (shift.isZero()) {
                return response;
            }
            Message shifted = response.withHeader("Date", shiftDate(response.header("Date"), shift));
            if (this == COSMOS && shifted.body().length > 0) {
                Matcher ts = COSMOS_TS.matcher(new String(shifted.body(), StandardCharsets.UTF_8));
                StringBuilder body = new StringBuilder();
                while (ts.find()) {
                    ts.appendReplacement(body, "\"_ts\":" + (Long.parseLong(ts.group(1)) + shift.toSeconds()));
                }
                ts.appendTail(body);
                shifted = shifted.withBody(body.toString().getBytes(StandardCharsets.UTF_8));
            }
            return shifted;
        }
    }

    private static final Pattern COSMOS_TS = Pattern.compile("\"_ts\"\\s*:\\s*(\\d+)");

    private final Store store;
    private final WireFaults faults;
    private final int targetPort;
    private final @Nullable SSLContext tls;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private WireFaultProxy(Store store, WireFaults faults, int targetPort, @Nullable SSLContext tls) {
        if (targetPort <= 0) {
            throw new IllegalArgumentException("targetPort must be positive, was " + targetPort);
        }
        this.store = store;
        this.faults = faults;
        this.targetPort = targetPort;
        this.tls = tls;
        try {
            server = tls == null
                    ? new ServerSocket(0, 50, InetAddress.getLoopbackAddress())
                    : tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not listen on 127.0.0.1", e);
        }
        Thread acceptor = new Thread(this::acceptForever, "wire-fault-proxy-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A plain HTTP proxy to {@code http://127.0.0.1:targetPort}. */
    public static WireFaultProxy http(Store store, WireFaults faults, int targetPort) {
        return new WireFaultProxy(store, faults, targetPort, null);
    }

    /**
     * An HTTPS proxy to {@code https://127.0.0.1:targetPort}, presenting the certificate in {@code keyStore} (PKCS12,
     * {@code password}) to its clients.
     */
    public static WireFaultProxy https(Store store, WireFaults faults, int targetPort, Path keyStore, char[] password) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, password);
            KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            managers.init(keys, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(managers.getKeyManagers(), null, null);
            return new WireFaultProxy(store, faults, targetPort, context);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the key store " + keyStore, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not use the key store " + keyStore, e);
        }
    }

    /** The faults it injects. */
    public WireFaults faults() {
        return faults;
    }

    /** The port it listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code http://127.0.0.1:port} or {@code https://127.0.0.1:port}: the endpoint to give the SDK. */
    public String url() {
        return (tls == null ? "http" : "https") + "://127.0.0.1:" + port();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread connection = new Thread(() -> serve(client), "wire-fault-proxy-" + port() + "-connection");
                connection.setDaemon(true);
                connection.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        Upstream upstream = null;
        try (client) {
            InputStream fromClient = new BufferedInputStream(client.getInputStream());
            OutputStream toClient = client.getOutputStream();
            while (true) {
                Message request = Message.read(fromClient, toClient);
                if (request == null) {
                    return;
                }
                WireFault fault = faults.decide(store.isWrite(request));
                faults.awaitLatency();
                if (fault == WireFault.NO_ANSWER) {
                    while (fromClient.read() >= 0) {
                        // hold the connection, unanswered, until the client gives up
                    }
                    return;
                }
                if (fault == WireFault.THROTTLED || fault == WireFault.UNAVAILABLE) {
                    toClient.write(store.answer(fault, faults.serverTimeShift()));
                    toClient.flush();
                    continue;
                }
                if (upstream == null) {
                    upstream = new Upstream(connect());
                }
                Message response = upstream.exchange(request);
                if (response == null) { // the server closed an idle keep-alive connection: once more on a new one
                    upstream.close();
                    upstream = new Upstream(connect());
                    response = upstream.exchange(request);
                    if (response == null) {
                        return;
                    }
                }
                if (response.endsWithConnection()) {
                    upstream.close();
                    upstream = null;
                }
                if (fault == WireFault.RESPONSE_LOST) {
                    return;
                }
                toClient.write(
                        fault == WireFault.ERROR_AFTER_FORWARD
                                ? store.answer(fault, faults.serverTimeShift())
                                : store.shift(response, faults.serverTimeShift())
                                        .bytes());
                toClient.flush();
            }
        } catch (IOException closed) {
            // either side went away: so does this connection
        } finally {
            sockets.remove(client);
            if (upstream != null) {
                upstream.close();
            }
        }
    }

    private Socket connect() throws IOException {
        Socket socket = tls == null
                ? new Socket(InetAddress.getLoopbackAddress(), targetPort)
                : SSLSocketFactory.getDefault().createSocket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(socket);
        return socket;
    }

    /** The proxy's connection to the server for one client connection. */
    private final class Upstream {
        private final Socket socket;
        private final InputStream in;

        Upstream(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
        }

        /** Sends {@code request} and reads its answer; {@code null} when the connection was closed first. */
        @Nullable
        Message exchange(Message request) throws IOException {
            try {
                socket.getOutputStream().write(request.bytes());
                socket.getOutputStream().flush();
                return Message.readResponse(in, request.method());
            } catch (EOFException | SocketException closed) {
                return null;
            }
        }

        void close() {
            sockets.remove(socket);
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private static String httpDate(Duration shift) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plus(shift));
    }

    private static @Nullable String shiftDate(@Nullable String date, Duration shift) {
        if (date == null) {
            return null;
        }
        try {
            return DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .plus(shift));
        } catch (DateTimeParseException e) {
            return date;
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** One HTTP/1.1 message, read whole: start line, headers in order, and the body with its framing removed. */
    record Message(String startLine, List<String> headers, byte[] body, boolean bodyless) {

        Message(String startLine, List<String> headers, byte[] body) {
            this(startLine, headers, body, false);
        }

        /**
         * Whether this answer ends its connection: it says so, or its body ran until the server closed it, so the
         * next request needs a new connection.
         */
        boolean endsWithConnection() {
            return "close".equalsIgnoreCase(header("Connection"))
                    || (!bodyless && header("Content-Length") == null && header("Transfer-Encoding") == null);
        }

        String method() {
            return startLine.substring(0, Math.max(0, startLine.indexOf(' ')));
        }

        String target() {
            String[] parts = startLine.split(" ");
            return parts.length > 1 ? parts[1] : "";
        }

        int status() {
            String[] parts = startLine.split(" ");
            return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        }

        @Nullable
        String header(String name) {
            for (String header : headers) {
                int colon = header.indexOf(':');
                if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return header.substring(colon + 1).trim();
                }
            }
            return null;
        }

        Message withHeader(String name, @Nullable String value) {
            if (value == null) {
                return this;
            }
            List<String> replaced = new ArrayList<>();
            for (String header : headers) {
                int colon = header.indexOf(':');
                replaced.add(
                        colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase(name)
                                ? name + ": " + value
                                : header);
            }
            return new Message(startLine, replaced, body, bodyless);
        }

        Message withBody(byte[] newBody) {
            return new Message(startLine, headers, newBody, bodyless);
        }

        /**
         * The message as it goes on the wire: framed by {@code Content-Length}, without an expectation; an answer
         * that has no body by definition (to a {@code HEAD}, a 204, a 304) keeps its headers as they were.
         */
        byte[] bytes() {
            boolean request = !startLine.startsWith("HTTP/");
            boolean framed = header("Content-Length") != null || header("Transfer-Encoding") != null;
            StringBuilder head = new StringBuilder(startLine).append("\r\n");
            for (String header : headers) {
                String name = header.substring(0, Math.max(0, header.indexOf(':')))
                        .trim()
                        .toLowerCase(Locale.ROOT);
                boolean reframed = !bodyless && (name.equals("content-length") || name.equals("transfer-encoding"));
                if (!reframed && !name.equals("expect")) {
                    head.append(header).append("\r\n");
                }
            }
            if (!bodyless && (!request || framed || body.length > 0)) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(body);
            return out.toByteArray();
        }

        /**
         * Reads one request; {@code null} at the end of the stream. A request that expects {@code 100-continue} is
         * told to continue on {@code toClient}.
         */
        static @Nullable Message read(InputStream in, OutputStream toClient) throws IOException {
            String startLine = line(in);
            while (startLine != null && startLine.isEmpty()) {
                startLine = line(in);
            }
            if (startLine == null) {
                return null;
            }
            List<String> headers = headers(in);
            Message head = new Message(startLine, headers, new byte[0]);
            if ("100-continue".equalsIgnoreCase(head.header("Expect"))) {
                toClient.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                toClient.flush();
            }
            return head.withBody(body(in, head, false));
        }

        /** Reads the answer to a request made with {@code method}, skipping interim (1xx) answers. */
        static @Nullable Message readResponse(InputStream in, String method) throws IOException {
            while (true) {
                String statusLine = line(in);
                if (statusLine == null) {
                    return null;
                }
                Message head = new Message(statusLine, headers(in), new byte[0]);
                int status = head.status();
                if (status >= 100 && status < 200) {
                    continue;
                }
                if (method.equals("HEAD") || status == 204 || status == 304) {
                    return new Message(statusLine, head.headers(), new byte[0], true);
                }
                return head.withBody(body(in, head, true));
            }
        }

        private static List<String> headers(InputStream in) throws IOException {
            List<String> headers = new ArrayList<>();
            for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
                headers.add(header);
            }
            return headers;
        }

        private static byte[] body(InputStream in, Message head, boolean untilClose) throws IOException {
            String encoding = head.header("Transfer-Encoding");
            if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                while (true) {
                    String size = line(in);
                    if (size == null) {
                        throw new EOFException("a chunked body ended early");
                    }
                    int length = Integer.parseInt(size.split(";")[0].trim(), 16);
                    if (length == 0) {
                        headers(in); // trailers
                        return body.toByteArray();
                    }
                    body.writeBytes(exactly(in, length));
                    line(in);
                }
            }
            String length = head.header("Content-Length");
            if (length != null) {
                return exactly(in, Integer.parseInt(length.trim()));
            }
            return untilClose ? in.readAllBytes() : new byte[0];
        }

        private static byte[] exactly(InputStream in, int length) throws IOException {
            byte[] bytes = in.readNBytes(length);
            if (bytes.length < length) {
                throw new EOFException("the body ended after " + bytes.length + " of " + length + " bytes");
            }
            return bytes;
        }

        /** One line without its CRLF; {@code null} at the end of the stream. */
        private static @Nullable String line(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    byte[] bytes = line.toByteArray();
                    int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
