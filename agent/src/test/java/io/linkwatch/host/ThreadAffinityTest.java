package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Against the real sched_setaffinity of the machine running the tests. */
class ThreadAffinityTest {
  @Test
  void currentListsAllowedCpus() {
    assertThat(ThreadAffinity.current())
        .isNotEmpty()
        .isSorted()
        .hasSizeLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void runsPinnedAndRestoresAfterSuccess() {
    List<Integer> original = ThreadAffinity.current();
    int cpu = original.get(original.size() - 1);

    List<Integer> inside = ThreadAffinity.runPinned(List.of(cpu), ThreadAffinity::current);

    assertThat(inside).containsExactly(cpu);
    assertThat(ThreadAffinity.current()).isEqualTo(original);
  }

  @Test
  void restoresANarrowedMaskAfterAnException() {
    List<Integer> original = ThreadAffinity.current();
    // Narrow first so that "restored" cannot be confused with "reset to every CPU".
    List<Integer> narrowed = original.size() >= 2 ? List.of(original.get(0)) : original;
    List<Integer> other =
        original.size() >= 2 ? List.of(original.get(original.size() - 1)) : original;

    ThreadAffinity.runPinned(
        narrowed,
        () -> {
          assertThat(ThreadAffinity.current()).isEqualTo(narrowed);
          assertThatThrownBy(
                  () ->
                      ThreadAffinity.runPinned(
                          other,
                          () -> {
                            assertThat(ThreadAffinity.current()).isEqualTo(other);
                            throw new IllegalStateException("copy failed");
                          }))
              .isInstanceOf(IllegalStateException.class)
              .hasMessage("copy failed");
          assertThat(ThreadAffinity.current()).isEqualTo(narrowed);
          return null;
        });

    assertThat(ThreadAffinity.current()).isEqualTo(original);
  }

  @Test
  void cpuThatDoesNotExistIsEinvalNamingTheCpus() {
    List<Integer> original = ThreadAffinity.current();

    assertThatThrownBy(() -> ThreadAffinity.runPinned(List.of(1000, 1001), () -> "never"))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("sched_setaffinity")
        .hasMessageContaining("cpus 1000-1001")
        .hasMessageContaining("EINVAL (22")
        .satisfies(e -> assertThat(((HostException) e).errno()).hasValue(Errno.EINVAL));
    assertThat(ThreadAffinity.current()).isEqualTo(original);
  }

  @Test
  void cpuBeyondTheMaskAndEmptyListAreRejectedBeforeTheCall() {
    assertThatThrownBy(() -> ThreadAffinity.runPinned(List.of(5000), () -> "never"))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("CPU 5000");
    assertThatThrownBy(() -> ThreadAffinity.runPinned(List.of(), () -> "never"))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("empty");
  }
}
