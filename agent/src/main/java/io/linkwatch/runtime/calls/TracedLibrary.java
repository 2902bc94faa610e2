package io.linkwatch.runtime.calls;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Wraps a JNA library so that every call of it is marked in a {@link CallJournal} on entry and on
 * return: one place covers every bound function, and the JNA interfaces stay free of logic.
 */
public final class TracedLibrary {
  private TracedLibrary() {}

  /** {@code library} itself when the journal is {@link CallJournal#NONE}: no cost where unused. */
  public static <T> T wrap(Class<T> type, T library, CallJournal journal) {
    if (journal == CallJournal.NONE) {
      return library;
    }
    Map<Method, byte[]> names = new HashMap<>();
    for (Method m : type.getMethods()) {
      names.put(m, m.getName().getBytes(StandardCharsets.US_ASCII));
    }
    InvocationHandler handler =
        (proxy, method, args) -> {
          byte[] name = names.get(method);
          if (name == null) {
            return invoke(library, method, args); // Object's methods: not a native call
          }
          journal.entering(name);
          try {
            return invoke(library, method, args);
          } finally {
            journal.returned();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause(); // e.g. JNA's UnsatisfiedLinkError for a symbol this CANN lacks
    }
  }
}
