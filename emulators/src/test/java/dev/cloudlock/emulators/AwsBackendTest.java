package dev.cloudlock.emulators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * Choosing the backend of the DynamoDB and S3 contract classes ({@code -Dcloudlock.backend}). The LocalStack
 * container itself never runs here (these machines have no Docker engine); what is checked is that the choice is
 * read right and that asking for LocalStack without an engine fails loudly, never falling back to moto or skipping.
 */
class AwsBackendTest {

    @Test
    void withoutThePropertyTheBackendIsMoto() {
        assertThat(AwsBackend.named(null)).isEqualTo(AwsBackend.MOTO);
        assertThat(AwsBackend.named(" ")).isEqualTo(AwsBackend.MOTO);
        assertThat(AwsBackend.named("moto")).isEqualTo(AwsBackend.MOTO);
    }

    @Test
    void localStackIsChosenByItsNameInAnyCase() {
        assertThat(AwsBackend.named("localstack")).isEqualTo(AwsBackend.LOCALSTACK);
        assertThat(AwsBackend.named(" LocalStack ")).isEqualTo(AwsBackend.LOCALSTACK);
    }

    @Test
    void anUnknownBackendFailsNamingTheValidOnes() {
        assertThatThrownBy(() -> AwsBackend.named("dynamodb-local"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-Dcloudlock.backend=dynamodb-local")
                .hasMessageContaining("valid values: moto, localstack");
    }

    @Test
    void localStackWithoutADockerEngineFailsNamingDockerAndHowToProceed() {
        assumeFalse(
                DockerClientFactory.instance().isDockerAvailable(),
                "a Docker engine answers here, so the failure under test cannot happen; with"
                        + " -Dcloudlock.backend=localstack the contract classes run on LocalStack instead");
        assertThatThrownBy(() -> Emulators.awsEndpoint(AwsBackend.LOCALSTACK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no Docker engine")
                .hasMessageContaining("Start a Docker engine")
                .hasMessageContaining("leave out -Dcloudlock.backend to run them on moto");
    }
}
