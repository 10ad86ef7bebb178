/**
 * This repository's test infrastructure, not published: launchers that start the emulators and runtimes the tests
 * use (moto, dynalite, S3Proxy, the Firestore emulator, the Cosmos server, a Lambda Runtime API) on 127.0.0.1 and
 * free ports, one process each per test JVM.
 */
@NullMarked
package dev.cloudlock.emulators;

import org.jspecify.annotations.NullMarked;
