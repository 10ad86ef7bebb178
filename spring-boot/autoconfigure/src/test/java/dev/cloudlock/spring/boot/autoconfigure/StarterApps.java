package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.emulators.Emulators;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts real Boot applications on 127.0.0.1 and a random port, and talks to them over HTTP. */
final class StarterApps {

    private StarterApps() {}

    /**
     * Writes the trust store that surefire's {@code javax.net.ssl.trustStore} names (the Cosmos launcher's
     * certificate). It must exist before anything in the JVM first uses TLS, so every test class calls this first.
     */
    static void trustTheCosmosLauncher() {
        Emulators.cosmosTrustStore();
    }

    /**
     * The properties every test application has: a random port on loopback, the Actuator endpoints exposed over
     * HTTP with details, and the AWS region and credentials Spring Cloud AWS needs (its starters are on the test
     * classpath, so it configures clients in every application).
     */
    static Map<String, Object> baseProperties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", "0");
        properties.put("server.address", "127.0.0.1");
        properties.put("management.endpoints.web.exposure.include", "health,cloudlocks");
        properties.put("management.endpoint.health.show-details", "always");
        properties.put("management.endpoint.cloudlocks.access", "unrestricted");
        properties.put("spring.cloud.aws.region.static", "us-east-1");
        properties.put("spring.cloud.aws.credentials.access-key", "test");
        properties.put("spring.cloud.aws.credentials.secret-key", "test");
        properties.put("spring.main.banner-mode", "off");
        return properties;
    }

    static ConfigurableApplicationContext start(Class<?> application, Map<String, Object> properties) {
        Map<String, Object> all = baseProperties();
        all.putAll(properties);
        return new SpringApplicationBuilder(application).properties(all).run();
    }

    static String baseUrl(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    static HttpResponse<String> get(ConfigurableApplicationContext context, String path) {
        return get(baseUrl(context), path);
    }

    static HttpResponse<String> get(String baseUrl, String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().build());
    }

    static HttpResponse<String> postJson(ConfigurableApplicationContext context, String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl(context) + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Created on first use: the JVM's TLS setup must wait for {@link #trustTheCosmosLauncher()}. */
    private static final class Http {
        static final HttpClient CLIENT = HttpClient.newHttpClient();
    }
}
