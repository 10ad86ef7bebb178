/**
 * For store authors and for tests of applications: {@link dev.cloudlock.testkit.LockProviderContract}, the contract
 * every store passes (extend it, point it at your store and say in a {@link dev.cloudlock.testkit.StoreCapabilities}
 * what else your test offers), {@link dev.cloudlock.testkit.LockHistory} and
 * {@link dev.cloudlock.testkit.ContendedRun} to prove that holdings never overlap, {@link
 * dev.cloudlock.testkit.WireFaultProxy} to inject faults on the wire between a real SDK and its server, {@link
 * dev.cloudlock.testkit.FaultInjectingStore} for faults above the store that no wire can produce, and {@link
 * dev.cloudlock.testkit.MutableClock}. It starts no emulator: bring your own backend.
 */
@NullMarked
package dev.cloudlock.testkit;

import org.jspecify.annotations.NullMarked;
