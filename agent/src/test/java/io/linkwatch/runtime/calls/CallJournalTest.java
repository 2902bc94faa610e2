package io.linkwatch.runtime.calls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal round trip through a real mapped file, as a worker writes it and the agent reads. */
class CallJournalTest {
  @TempDir Path dir;

  /** A stand-in for a JNA interface: the proxy wraps any interface the same way. */
  interface Library {
    int aclrtSynchronizeStream(long stream);

    int aclrtMemcpy(long dst);
  }

  @Test
  void aCallInProgressAndAReturnedCallAreReadBackPerThread() throws Exception {
    try (CallJournalFile file = CallJournalFile.create(dir)) {
      MappedCallJournal journal = MappedCallJournal.open(file.path());
      AtomicReference<List<JournalEntry>> seenInside = new AtomicReference<>();
      Library real =
          new Library() {
            @Override
            public int aclrtSynchronizeStream(long stream) {
              seenInside.set(file.read()); // what the agent would read if the worker died here
              return 0;
            }

            @Override
            public int aclrtMemcpy(long dst) {
              return 0;
            }
          };
      Library traced = TracedLibrary.wrap(Library.class, real, journal);

      Thread rank1 =
          new Thread(
              () -> {
                journal.onDevice(1);
                traced.aclrtSynchronizeStream(42);
              },
              "allreduce-rank-1");
      rank1.start();
      rank1.join();
      journal.onDevice(CallJournal.NO_DEVICE);
      traced.aclrtMemcpy(7);

      assertThat(seenInside.get())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.thread()).isEqualTo("allreduce-rank-1");
                assertThat(e.inCall()).isTrue();
                assertThat(e.where()).isEqualTo("aclrtSynchronizeStream (device 1)");
              });
      List<JournalEntry> after = file.read();
      assertThat(after).hasSize(2).noneMatch(JournalEntry::inCall);
      assertThat(after)
          .extracting(JournalEntry::where)
          .containsExactlyInAnyOrder("aclrtSynchronizeStream (device 1)", "aclrtMemcpy");
      assertThat(after).allSatisfy(e -> assertThat(e.returnedAtMillis()).isPositive());
      assertThat(after)
          .filteredOn(e -> e.thread().equals("allreduce-rank-1"))
          .singleElement()
          .satisfies(
              e -> assertThat(e.slowest().where()).isEqualTo("aclrtSynchronizeStream (device 1)"));
    }
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void aCallThatThrowsIsMarkedReturnedAndTheErrorPassesThrough() throws Exception {
    try (CallJournalFile file = CallJournalFile.create(dir)) {
      Library real =
          new Library() {
            @Override
            public int aclrtSynchronizeStream(long stream) {
              throw new UnsatisfiedLinkError("Error looking up function 'aclrtSynchronizeStream'");
            }

            @Override
            public int aclrtMemcpy(long dst) {
              return 0;
            }
          };
      Library traced = TracedLibrary.wrap(Library.class, real, MappedCallJournal.open(file.path()));

      assertThatThrownBy(() -> traced.aclrtSynchronizeStream(1))
          .isInstanceOf(UnsatisfiedLinkError.class);
      assertThat(file.read()).singleElement().satisfies(e -> assertThat(e.inCall()).isFalse());
    }
  }

  @Test
  void withoutAJournalTheLibraryIsNotWrapped() {
    Library real =
        new Library() {
          @Override
          public int aclrtSynchronizeStream(long stream) {
            return 0;
          }

          @Override
          public int aclrtMemcpy(long dst) {
            return 0;
          }
        };
    assertThat(TracedLibrary.wrap(Library.class, real, CallJournal.NONE)).isSameAs(real);
  }

  @Test
  void aSlotTornByAKillMidWriteIsLeftOut() throws Exception {
    try (CallJournalFile file = CallJournalFile.create(dir)) {
      MappedCallJournal journal = MappedCallJournal.open(file.path());
      journal.entering("aclrtMemcpy".getBytes());
      byte[] bytes = Files.readAllBytes(file.path());
      assertThat(CallJournalFile.parse(ByteBuffer.wrap(bytes))).hasSize(1);

      ByteBuffer torn = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      torn.putInt(JournalLayout.SEQUENCE, torn.getInt(JournalLayout.SEQUENCE) + 1);
      assertThat(CallJournalFile.parse(torn)).isEmpty();
    }
  }
}
