package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import org.junit.jupiter.api.Test;

/** A {@code lockedBy} must tell instances apart: blank or holding an unresolved placeholder, it is refused. */
class LockedByTest {

    private static CloudLockProviderBuilder<?> builder() {
        return new InMemoryStoreType()
                .builder(new StoreSettings("in-memory", s -> null, s -> "--" + s.name(), c -> null, v -> null));
    }

    @Test
    void aPlaceholderNothingResolvedIsRefusedNamingItByTheBuilderAndTheConstructor() {
        assertThatThrownBy(() -> builder().lockedBy("${HOSTNAME}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'${HOSTNAME}'")
                .hasMessageContaining("placeholder");
        assertThatThrownBy(() -> new CloudLockProvider(new InMemoryLockStore(), "report/${HOSTNAME}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placeholder");
    }

    @Test
    void aBlankOneIsRefusedAndAReadableOneKept() {
        assertThatThrownBy(() -> builder().lockedBy(" ")).hasMessageContaining("blank");
        assertThat(builder().lockedBy("report-7f3c/4211").build().lockedBy()).isEqualTo("report-7f3c/4211");
        assertThat(StoreType.find("in-memory")).isPresent();
    }
}
