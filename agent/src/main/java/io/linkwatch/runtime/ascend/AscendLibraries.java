package io.linkwatch.runtime.ascend;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.binding.NativeLibraries;
import io.linkwatch.runtime.binding.SimLibrary;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.List;
import java.util.Optional;

/**
 * Loads the libraries behind a backend. {@code ascend} loads CANN's {@code libascendcl.so} and
 * {@code libhccl.so} (or {@code libhcomm.so}, where newer CANN moved the communicator calls) by
 * name, as the dynamic linker finds them after {@code set_env.sh}. {@code sim} loads {@code
 * liblinkwatch-sim.so}, which exports all of them: from {@code LINKWATCH_SIM_LIBRARY} when set,
 * else the copy inside the jar. HCCL is loaded on first use, so a host without it can still run the
 * other probes. Every library's calls are marked in the {@link CallJournal} it is loaded with.
 */
public final class AscendLibraries extends NativeLibraries {
  private final AclLibrary acl;
  private HcclLibrary hcclOps;
  private HcclLibrary hcclComm;
  private DcmiLibrary dcmi;

  private AscendLibraries(
      Backend backend, AclLibrary acl, Optional<SimLibrary> sim, String path, CallJournal journal) {
    super(backend, sim, path, journal);
    this.acl = traced(AclLibrary.class, acl);
  }

  public static AscendLibraries load(Backend backend) {
    return load(backend, CallJournal.NONE);
  }

  public static AscendLibraries load(Backend backend, CallJournal journal) {
    Make<AclLibrary, AscendLibraries> make =
        (acl, sim, path) -> new AscendLibraries(backend, acl, sim, path, journal);
    if (backend == Backend.SIM) {
      return loadSim(AclLibrary.class, make);
    }
    return loadVendor(
        "ascendcl",
        AclLibrary.class,
        "libascendcl.so not found: install CANN and source set_env.sh, or use --backend sim",
        make);
  }

  /** Whether CANN's libascendcl.so can be loaded here, without initializing it. */
  public static boolean present() {
    return loadable(() -> NativeLibrary.getInstance("ascendcl"));
  }

  public AclLibrary acl() {
    return acl;
  }

  /**
   * DCMI, for device activity: {@code libdcmi.so} from the library path, else from {@code
   * /usr/local/dcmi} where the driver package puts it (and containers often mount it); the sim
   * exports the same calls.
   */
  public synchronized DcmiLibrary dcmi() {
    if (dcmi == null) {
      if (simulated()) {
        dcmi = Native.load(actual("dcmi"), DcmiLibrary.class);
      } else {
        dcmi = loadDcmi();
      }
      dcmi = traced(DcmiLibrary.class, dcmi);
    }
    return dcmi;
  }

  private static DcmiLibrary loadDcmi() {
    UnsatisfiedLinkError last = null;
    for (String name : List.of("dcmi", "/usr/local/dcmi/libdcmi.so")) {
      try {
        return Native.load(name, DcmiLibrary.class);
      } catch (UnsatisfiedLinkError e) {
        last = e;
      }
    }
    throw new BackendUnavailableException(
        "libdcmi.so not found on the library path or in /usr/local/dcmi", last);
  }

  /** The library holding {@code HcclAllReduce}. */
  public synchronized HcclLibrary hcclOps() {
    if (hcclOps == null) {
      hcclOps = loadHccl("hccl");
    }
    return hcclOps;
  }

  /** The library holding the communicator calls: libhccl.so in classic CANN, else libhcomm.so. */
  public synchronized HcclLibrary hcclComm() {
    if (hcclComm == null) {
      HcclLibrary ops = hcclOps();
      hcclComm = exports("hccl", "HcclCommInitAll") ? ops : loadHccl("hcomm");
    }
    return hcclComm;
  }

  private HcclLibrary loadHccl(String name) {
    return loadTraced(
        name,
        HcclLibrary.class,
        "lib" + name + ".so not found: install CANN's HCCL and source set_env.sh");
  }

  private boolean exports(String name, String symbol) {
    return loadable(() -> NativeLibrary.getInstance(actual(name)).getFunction(symbol));
  }
}
