package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreCapabilitiesTest {

    @Test
    void nothingOfferedLeavesEveryCapabilityAbsentAtTheDefaultSizes() {
        StoreCapabilities none = StoreCapabilities.none();
        assertThat(none.usesClientClock()).isEmpty();
        assertThat(none.misconfiguredProvider()).isEmpty();
        assertThat(none.silentProvider()).isEmpty();
        assertThat(none.wireFaults()).isEmpty();
        assertThat(none.providerOnWire()).isEmpty();
        assertThat(none.strayRecordWriter()).isEmpty();
        assertThat(none.wireCarriesStoreTime()).isTrue();
        assertThat(none.silentDeadline()).isEqualTo(Duration.ofSeconds(2));
        assertThat(none.contentionThreads()).isEqualTo(8);
        assertThat(none.contentionAcquisitionsPerThread()).isEqualTo(40);
    }

    @Test
    void whatIsOfferedIsWhatTheValueGivesBack() {
        CloudLockProvider provider = new CloudLockProvider(new InMemoryLockStore(), "a");
        WireFaults faults = new WireFaults();
        List<String> stray = new ArrayList<>();
        StoreCapabilities.Builder builder = StoreCapabilities.builder()
                .usesClientClock(false)
                .misconfiguredProvider(() -> provider)
                .silentProvider(callTimeout -> provider)
                .wire(faults, (lockedBy, callTimeout) -> provider)
                .wireCarriesStoreTime(false)
                .strayRecordWriter(stray::add)
                .silentDeadline(Duration.ofSeconds(5))
                .contention(1, 50);
        StoreCapabilities capabilities = builder.build();
        builder.contention(4, 4).usesClientClock(true);

        assertThat(capabilities.usesClientClock()).contains(false);
        assertThat(capabilities.misconfiguredProvider().orElseThrow().get()).isSameAs(provider);
        assertThat(capabilities.silentProvider().orElseThrow().provider(null)).isSameAs(provider);
        assertThat(capabilities.wireFaults()).containsSame(faults);
        assertThat(capabilities.providerOnWire().orElseThrow().provider("b", Duration.ofSeconds(1)))
                .isSameAs(provider);
        assertThat(capabilities.wireCarriesStoreTime()).isFalse();
        capabilities.strayRecordWriter().orElseThrow().accept("stray");
        assertThat(stray).containsExactly("stray");
        assertThat(capabilities.silentDeadline()).isEqualTo(Duration.ofSeconds(5));
        assertThat(capabilities.contentionThreads())
                .as("a later change to the builder leaves a built value as it was")
                .isEqualTo(1);
        assertThat(capabilities.contentionAcquisitionsPerThread()).isEqualTo(50);
    }

    @Test
    void sizesAndDeadlinesThatCannotRunAreRefused() {
        StoreCapabilities.Builder builder = StoreCapabilities.builder();
        assertThatThrownBy(() -> builder.contention(0, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.contention(8, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.silentDeadline(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(builder.build().contentionThreads()).isEqualTo(8);
    }
}
