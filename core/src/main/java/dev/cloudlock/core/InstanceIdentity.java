package dev.cloudlock.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The default readable identity written to {@code lockedBy}: {@code host/pid}. */
public final class InstanceIdentity {

    private InstanceIdentity() {}

    /** {@code hostname/pid} of this JVM, e.g. {@code ip-10-0-3-7/4711}. */
    public static String hostAndPid() {
        return hostname() + "/" + ProcessHandle.current().pid();
    }

    private static String hostname() {
        String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
