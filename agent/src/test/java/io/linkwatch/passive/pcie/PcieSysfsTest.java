package io.linkwatch.passive.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PcieSysfsTest {
  @Test
  void speedsOfCurrentKernels() {
    // pci_speed_string(), drivers/pci/probe.c
    assertThat(PcieSysfs.parseSpeed("2.5 GT/s PCIe\n")).hasValue(2.5e9);
    assertThat(PcieSysfs.parseSpeed("5.0 GT/s PCIe\n")).hasValue(5.0e9);
    assertThat(PcieSysfs.parseSpeed("8.0 GT/s PCIe\n")).hasValue(8.0e9);
    assertThat(PcieSysfs.parseSpeed("16.0 GT/s PCIe\n")).hasValue(16.0e9);
    assertThat(PcieSysfs.parseSpeed("32.0 GT/s PCIe\n")).hasValue(32.0e9);
    assertThat(PcieSysfs.parseSpeed("64.0 GT/s PCIe\n")).hasValue(64.0e9);
  }

  @Test
  void speedsOfKernelsBefore419() {
    // pci-sysfs.c printed the rate without "PCIe", and 5 and 8 without a decimal.
    assertThat(PcieSysfs.parseSpeed("2.5 GT/s\n")).hasValue(2.5e9);
    assertThat(PcieSysfs.parseSpeed("5 GT/s\n")).hasValue(5.0e9);
    assertThat(PcieSysfs.parseSpeed("8 GT/s\n")).hasValue(8.0e9);
  }

  @Test
  void unknownOrMalformedSpeedIsEmpty() {
    assertThat(PcieSysfs.parseSpeed("Unknown\n")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("Unknown speed\n")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("\n")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("fast")).isEmpty();
    // A rate in some other unit would be off by orders of magnitude: not taken.
    assertThat(PcieSysfs.parseSpeed("8 MB/s")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("8")).isEmpty();
    assertThat(PcieSysfs.parseSpeed("-8 GT/s")).isEmpty();
  }

  @Test
  void widths() {
    assertThat(PcieSysfs.parseWidth("16\n")).hasValue(16);
    assertThat(PcieSysfs.parseWidth("1\n")).hasValue(1);
    assertThat(PcieSysfs.parseWidth("8")).hasValue(8);
    // A link that trained to no lanes is a fact to report, not a missing value.
    assertThat(PcieSysfs.parseWidth("0\n")).hasValue(0);
  }

  @Test
  void malformedWidthIsEmpty() {
    assertThat(PcieSysfs.parseWidth("")).isEmpty();
    assertThat(PcieSysfs.parseWidth("x16")).isEmpty();
    assertThat(PcieSysfs.parseWidth("-1")).isEmpty();
    assertThat(PcieSysfs.parseWidth("Unknown")).isEmpty();
    assertThat(PcieSysfs.parseWidth("99999999999")).isEmpty();
    assertThat(PcieSysfs.parseWidth("16 lanes")).isEmpty();
  }

  @Test
  void correctableFileOfCurrentKernels() {
    Map<String, Long> counts =
        PcieSysfs.parseAer(
            """
            RxErr 0
            BadTLP 3
            BadDLLP 1
            Rollover 0
            Timeout 2
            NonFatalErr 0
            CorrIntErr 0
            HeaderOF 0
            TOTAL_ERR_COR 5
            """);

    assertThat(counts)
        .containsExactly(
            Map.entry("RxErr", 0L),
            Map.entry("BadTLP", 3L),
            Map.entry("BadDLLP", 1L),
            Map.entry("Rollover", 0L),
            Map.entry("Timeout", 2L),
            Map.entry("NonFatalErr", 0L),
            Map.entry("CorrIntErr", 0L),
            Map.entry("HeaderOF", 0L),
            Map.entry("TOTAL_ERR_COR", 5L));
    // One report can set two status bits, so the TOTAL line (reports) wins over the sum (bits).
    assertThat(PcieSysfs.aerTotal(counts, AerSeverity.CORRECTABLE)).hasValue(5);
  }

  @Test
  void correctableFileOf419NamesWithSpaces() {
    // The names of Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats (4.19).
    Map<String, Long> counts =
        PcieSysfs.parseAer(
            """
            Receiver Error 2
            Bad TLP 0
            Bad DLLP 0
            RELAY_NUM Rollover 0
            Replay Timer Timeout 0
            Advisory Non-Fatal 0
            Corrected Internal Error 0
            Header Log Overflow 0
            TOTAL_ERR_COR 2
            """);

    assertThat(counts).hasSize(9);
    assertThat(counts).containsEntry("Receiver Error", 2L);
    assertThat(counts).containsEntry("RELAY_NUM Rollover", 0L);
    assertThat(counts).containsEntry("Advisory Non-Fatal", 0L);
    assertThat(PcieSysfs.aerTotal(counts, AerSeverity.CORRECTABLE)).hasValue(2);
  }

  @Test
  void uncorrectableFilesOfBothNameSets() {
    Map<String, Long> nonfatal =
        PcieSysfs.parseAer(
            """
            Undefined 0
            DLP 0
            SDES 0
            TLP 0
            FCP 0
            CmpltTO 4
            CmpltAbrt 0
            UnxCmplt 1
            RxOF 0
            MalfTLP 0
            ECRC 0
            UnsupReq 0
            ACSViol 0
            UncorrIntErr 0
            BlockedTLP 0
            AtomicOpBlocked 0
            TLPBlockedErr 0
            PoisonTLPBlocked 0
            TOTAL_ERR_NONFATAL 4
            """);
    Map<String, Long> fatal =
        PcieSysfs.parseAer(
            """
            Undefined 0
            Data Link Protocol 1
            Surprise Down Error 0
            Poisoned TLP 0
            Flow Control Protocol 0
            Completion Timeout 0
            Completer Abort 0
            Unexpected Completion 0
            Receiver Overflow 0
            Malformed TLP 0
            ECRC 0
            Unsupported Request 0
            ACS Violation 0
            Uncorrectable Internal Error 0
            MC Blocked TLP 0
            AtomicOp Egress Blocked 0
            TLP Prefix Blocked Error 0
            TOTAL_ERR_FATAL 1
            """);

    assertThat(nonfatal).hasSize(19).containsEntry("CmpltTO", 4L);
    assertThat(PcieSysfs.aerTotal(nonfatal, AerSeverity.NONFATAL)).hasValue(4);
    assertThat(fatal).hasSize(18).containsEntry("Data Link Protocol", 1L);
    assertThat(fatal).containsEntry("TLP Prefix Blocked Error", 0L);
    assertThat(PcieSysfs.aerTotal(fatal, AerSeverity.FATAL)).hasValue(1);
  }

  @Test
  void withoutTotalLineTheSumOfTheOthers() {
    Map<String, Long> counts =
        PcieSysfs.parseAer(
            """
            RxErr 1
            BadTLP 2
            Timeout 4
            """);

    assertThat(PcieSysfs.aerTotal(counts, AerSeverity.CORRECTABLE)).hasValue(7);
  }

  @Test
  void theTotalLineOfAnotherSeverityIsNotThisOnesTotal() {
    Map<String, Long> counts = PcieSysfs.parseAer("DLP 2\nTOTAL_ERR_COR 9\n");

    assertThat(PcieSysfs.aerTotal(counts, AerSeverity.FATAL)).hasValue(11);
  }

  @Test
  void blankAndUnparsableLinesAreSkipped() {
    Map<String, Long> counts =
        PcieSysfs.parseAer(
            """

            RxErr 1
            garbage
            BadTLP lots
            Bad DLLP -1
              Timeout   2\t
            (null) 3
            Huge 99999999999999999999

            TOTAL_ERR_COR 3
            """);

    Map<String, Long> expected = new LinkedHashMap<>();
    expected.put("RxErr", 1L);
    expected.put("Timeout", 2L);
    expected.put("(null)", 3L);
    expected.put("TOTAL_ERR_COR", 3L);
    assertThat(counts).containsExactlyEntriesOf(expected);
  }

  @Test
  void rootPortFilesAreOneBareNumberAndNotCounterLines() {
    // aer_rootport_total_err_{cor,fatal,nonfatal} hold only the number: errors reported to the
    // root port by any function below it. They are not the root port's own counters, which are
    // its aer_dev_* files, so they give no counter here.
    assertThat(PcieSysfs.parseAer("5\n")).isEmpty();
    assertThat(PcieSysfs.aerTotal(PcieSysfs.parseAer("5\n"), AerSeverity.CORRECTABLE)).isEmpty();
  }

  @Test
  void emptyFileHasNoTotal() {
    assertThat(PcieSysfs.parseAer("")).isEmpty();
    assertThat(PcieSysfs.aerTotal(Map.of(), AerSeverity.FATAL)).isEqualTo(OptionalLong.empty());
  }

  @Test
  void aSumThatOverflowsIsNoTotal() {
    Map<String, Long> counts = Map.of("RxErr", Long.MAX_VALUE, "BadTLP", 1L);

    assertThat(PcieSysfs.aerTotal(counts, AerSeverity.CORRECTABLE)).isEmpty();
  }
}
