package dev.cloudlock.emulators;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack's DynamoDB and S3 in one Docker container, started through Testcontainers (the only class here that
 * touches it, so that Testcontainers is loaded only when {@code -Dcloudlock.backend=localstack} asks for it). Its port
 * is published on 127.0.0.1 of the Docker host only, so the engine must run on this machine. Not run on the machines
 * this repository is built on (they have no Docker engine); see docs/testing.md.
 */
final class LocalStackEmulator {

    /** The last LocalStack image that starts without an account: from 4.15 on, it requires LOCALSTACK_AUTH_TOKEN. */
    static final String DEFAULT_IMAGE = "localstack/localstack:4.14.0";

    /** Names another LocalStack image (pass LOCALSTACK_AUTH_TOKEN in the environment for one that needs it). */
    static final String IMAGE_PROPERTY = "cloudlock.localstack.image";

    private static final int EDGE_PORT = 4566;

    private LocalStackEmulator() {}

    /**
     * Fails, naming Docker and the way out, when Testcontainers finds no Docker engine (it looks at
     * {@code DOCKER_HOST}, {@code ~/.testcontainers.properties} and the usual sockets).
     */
    static void requireDocker() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("-D" + AwsBackend.PROPERTY + "=localstack runs the DynamoDB and S3 contract"
                    + " tests on LocalStack in a Docker container, but Testcontainers found no Docker engine (it looks"
                    + " at DOCKER_HOST, ~/.testcontainers.properties and /var/run/docker.sock). Start a Docker engine"
                    + " on this machine, or leave out -D" + AwsBackend.PROPERTY + " to run them on moto.");
        }
    }

    /** Starts the container (stopped when the JVM exits, by Testcontainers' reaper) and returns its endpoint. */
    static String start() {
        requireDocker();
        DockerImageName image = DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
                .asCompatibleSubstituteFor("localstack/localstack");
        @SuppressWarnings("resource") // lives as long as the test JVM, like every other emulator
        LocalStackContainer container = new LocalStackContainer(image)
                .withServices("dynamodb", "s3")
                .withCreateContainerCmdModifier(command -> command.getHostConfig()
                        .withPublishAllPorts(false)
                        .withPortBindings(
                                new PortBinding(Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(EDGE_PORT))));
        String token = System.getenv("LOCALSTACK_AUTH_TOKEN");
        if (token != null && !token.isBlank()) {
            container.withEnv("LOCALSTACK_AUTH_TOKEN", token);
        }
        container.start();
        return "http://127.0.0.1:" + container.getMappedPort(EDGE_PORT);
    }
}
