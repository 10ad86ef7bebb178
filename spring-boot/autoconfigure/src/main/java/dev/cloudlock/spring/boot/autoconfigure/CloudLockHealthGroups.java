package dev.cloudlock.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Keeps the lock store's health out of the application's own: {@code /actuator/health} leaves the
 * {@value #CONTRIBUTOR} contributor out, so that a lock store outage does not take a web application out of its load
 * balancer's rotation, and the group {@value #GROUP} ({@code /actuator/health/cloudlock}) shows it, with the primary
 * group's visibility and HTTP status mapping (503 when DOWN). A group of the application's own
 * ({@code management.endpoint.health.group.<name>.include=cloudlockStore}) includes it as usual.
 */
final class CloudLockHealthGroups implements HealthEndpointGroupsPostProcessor {

    /** The name of the lock store's health contributor (its bean's name without {@code HealthIndicator}). */
    static final String CONTRIBUTOR = "cloudlockStore";

    /** The health group that shows it. */
    static final String GROUP = "cloudlock";

    @Override
    public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
        HealthEndpointGroup primary = groups.getPrimary();
        Map<String, HealthEndpointGroup> named = new LinkedHashMap<>();
        for (String name : groups.getNames()) {
            named.put(name, groups.get(name));
        }
        named.putIfAbsent(GROUP, new Members(primary, CONTRIBUTOR::equals));
        return HealthEndpointGroups.of(
                new Members(primary, name -> !name.equals(CONTRIBUTOR) && primary.isMember(name)), named);
    }

    /** {@code settings}' visibility, aggregation and status mapping over other members. */
    private record Members(HealthEndpointGroup settings, Predicate<String> members) implements HealthEndpointGroup {

        @Override
        public boolean isMember(String name) {
            return members.test(name);
        }

        @Override
        public boolean showComponents(SecurityContext securityContext) {
            return settings.showComponents(securityContext);
        }

        @Override
        public boolean showDetails(SecurityContext securityContext) {
            return settings.showDetails(securityContext);
        }

        @Override
        public StatusAggregator getStatusAggregator() {
            return settings.getStatusAggregator();
        }

        @Override
        public HttpCodeStatusMapper getHttpCodeStatusMapper() {
            return settings.getHttpCodeStatusMapper();
        }

        @Override
        public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
            return null;
        }
    }
}
