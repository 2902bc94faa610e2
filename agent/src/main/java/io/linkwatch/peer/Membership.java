package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.util.List;

/** Where the members come from: a static list, or a source read again and again. */
public interface Membership extends AutoCloseable {
  /**
   * {@code static}, {@code http_sd}, {@code slurm} or {@code kubernetes}: the label and log word
   * for the source.
   */
  String source();

  /** The members now; empty before a first read succeeded. */
  List<Member> current();

  /** Why the last read failed, while the list in use is older than it should be; else null. */
  default String lastError() {
    return null;
  }

  /** Reads that failed since the start. */
  default long failures() {
    return 0;
  }

  @Override
  default void close() {}

  static Membership of(PeerConfig config) {
    if (config.slurm().isPresent()) {
      return SlurmMembership.start(config.slurm().get());
    }
    if (config.kubernetes().isPresent()) {
      return KubernetesMembership.start(config.kubernetes().get());
    }
    if (config.httpSd().isPresent()) {
      return HttpSdMembership.start(config.httpSd().get(), config.httpSdRefresh());
    }
    List<Member> members = config.staticMembers();
    return new Membership() {
      @Override
      public String source() {
        return "static";
      }

      @Override
      public List<Member> current() {
        return members;
      }
    };
  }
}
