package io.linkwatch.runtime.binding;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.calls.CallJournal;
import io.linkwatch.runtime.calls.TracedLibrary;
import java.util.Optional;

/**
 * What the vendors' library loaders share: the backend, the {@link CallJournal} every library's
 * calls are marked in, and the sim, which exports every vendor's symbols from {@code
 * liblinkwatch-sim.so} ({@link SimLibrary#path()}) and so stands in for each library by name.
 */
public abstract class NativeLibraries {
  /**
   * A loader's constructor: the vendor's main library, and the sim and its path where it is one.
   */
  @FunctionalInterface
  protected interface Make<T, L> {
    L make(T library, Optional<SimLibrary> sim, String simPath);
  }

  private final Backend backend;
  private final Optional<SimLibrary> sim;
  private final String simPath;
  private final CallJournal journal;

  protected NativeLibraries(
      Backend backend, Optional<SimLibrary> sim, String simPath, CallJournal journal) {
    this.backend = backend;
    this.sim = sim;
    this.simPath = simPath;
    this.journal = journal;
  }

  /** The vendor's main library and the sim's own exports, both from the sim. */
  protected static <T extends Library, L> L loadSim(Class<T> type, Make<T, L> make) {
    String path = SimLibrary.path();
    try {
      return make.make(
          Native.load(path, type), Optional.of(Native.load(path, SimLibrary.class)), path);
    } catch (UnsatisfiedLinkError e) {
      throw BackendUnavailableException.simNotLoadable(e);
    }
  }

  /** The vendor's main library by {@code name}; {@code missing} says what to do without it. */
  protected static <T extends Library, L> L loadVendor(
      String name, Class<T> type, String missing, Make<T, L> make) {
    try {
      return make.make(Native.load(name, type), Optional.empty(), null);
    } catch (UnsatisfiedLinkError e) {
      throw new BackendUnavailableException(missing, e);
    }
  }

  /** Whether {@code load} finds what it loads, e.g. a vendor library, without initializing it. */
  protected static boolean loadable(Runnable load) {
    try {
      load.run();
      return true;
    } catch (UnsatisfiedLinkError e) {
      return false;
    }
  }

  public Backend backend() {
    return backend;
  }

  public CallJournal journal() {
    return journal;
  }

  public Optional<SimLibrary> sim() {
    return sim;
  }

  /** Whether the sim stands in for the vendor's libraries. */
  protected final boolean simulated() {
    return simPath != null;
  }

  /** What to load the library {@code name} by: the sim's path where the sim stands in. */
  protected final String actual(String name) {
    return simulated() ? simPath : name;
  }

  /** {@code library} with its calls marked in the journal. */
  protected final <T> T traced(Class<T> type, T library) {
    return TracedLibrary.wrap(type, library, journal);
  }

  /**
   * A library loaded by {@code name} ({@link #actual}), its calls marked in the journal; {@code
   * missing} is the message where it cannot be loaded.
   */
  protected final <T extends Library> T loadTraced(String name, Class<T> type, String missing) {
    try {
      return traced(type, Native.load(actual(name), type));
    } catch (UnsatisfiedLinkError e) {
      throw new BackendUnavailableException(missing, e);
    }
  }
}
