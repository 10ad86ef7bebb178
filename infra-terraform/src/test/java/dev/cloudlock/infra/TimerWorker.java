package dev.cloudlock.infra;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Does for one timer function what the Azure Functions Java worker does, in a JVM of its own whose class path is the
 * package's jars (the {@code function.json}'s {@code scriptFile} and {@code lib/}) and whose environment is the app's
 * settings: it loads the {@code entryPoint} class, calls the method with each timer JSON given and an
 * {@code ExecutionContext} whose logger is the invocation's log, and prints that log to stdout as
 * {@code invocation log: ...} lines. The worker itself (and the host) cannot be installed on our machines. Only JDK
 * classes here: the function's own come from the package.
 *
 * <p>Arguments: the entry point ({@code package.Class.method}), the function's name, then the timer JSONs.
 */
public final class TimerWorker {

    private TimerWorker() {}

    public static void main(String[] args) throws Exception {
        String entryPoint = args[0];
        String functionName = args[1];
        int dot = entryPoint.lastIndexOf('.');
        Class<?> function = Class.forName(entryPoint.substring(0, dot));
        Class<?> contextType = Class.forName("com.microsoft.azure.functions.ExecutionContext");
        Method method = function.getMethod(entryPoint.substring(dot + 1), String.class, contextType);

        Logger log = Logger.getLogger("Host.Function." + functionName);
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                System.out.println("invocation log: " + record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        for (int i = 2; i < args.length; i++) {
            String invocationId = UUID.randomUUID().toString();
            Object context = Proxy.newProxyInstance(
                    function.getClassLoader(),
                    new Class<?>[] {contextType},
                    (proxy, called, arguments) -> switch (called.getName()) {
                        case "getLogger" -> log;
                        case "getInvocationId" -> invocationId;
                        case "getFunctionName" -> functionName;
                        case "toString" -> "ExecutionContext[" + functionName + "]";
                        default -> null;
                    });
            try {
                method.invoke(function.getDeclaredConstructor().newInstance(), args[i], context);
                System.out.println("invocation " + (i - 1) + ": succeeded");
            } catch (InvocationTargetException failed) {
                System.out.println("invocation " + (i - 1) + ": failed: " + failed.getCause());
            }
        }
    }
}
