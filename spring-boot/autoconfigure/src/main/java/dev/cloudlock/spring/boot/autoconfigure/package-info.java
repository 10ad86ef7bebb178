/**
 * Spring Boot auto-configuration for cloudlock: a {@link dev.cloudlock.core.CloudLockProvider} bean from
 * {@code cloudlock.*} properties, checked against its store at startup, with meters, a health indicator and the
 * {@code cloudlocks} Actuator endpoint when the application has Micrometer and Actuator.
 */
@NullMarked
package dev.cloudlock.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
