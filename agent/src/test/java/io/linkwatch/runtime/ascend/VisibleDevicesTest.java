package io.linkwatch.runtime.ascend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ASCEND_RT_VISIBLE_DEVICES read as env_vars/ASCEND_RT_VISIBLE_DEVICES.md describes. */
class VisibleDevicesTest {
  private static List<Integer> ids(String value) {
    return VisibleDevices.parse(value).orElseThrow().hostIds();
  }

  @Test
  void unsetMeansEveryDeviceUnderItsOwnNumber() {
    assertThat(VisibleDevices.parse(null)).isEmpty();
  }

  @Test
  void theDocumentedExamples() {
    assertThat(ids("1")).containsExactly(1);
    assertThat(ids("1,2,3")).containsExactly(1, 2, 3);
    // "1, 2,3": the space ends the list.
    assertThat(ids("1, 2,3")).containsExactly(1);
    // "1,3,8" on eight devices: 8 is invalid; the runtime reports two devices, the first two ids.
    assertThat(ids("1,3,8").subList(0, 2)).containsExactly(1, 3);
  }

  @Test
  void onlyAscendingListsAreRead() {
    assertThat(ids("2,1")).containsExactly(2);
    assertThat(ids("2,2,3")).containsExactly(2);
    assertThat(ids("")).isEmpty();
    assertThat(ids("x,1")).isEmpty();
  }

  @Test
  void aDeviceIsAskedAboutUnderItsHostNumber() {
    VisibleDevices v = VisibleDevices.parse("1,3").orElseThrow();
    assertThat(v.hostId(0)).isEqualTo(1);
    assertThat(v.hostId(1)).isEqualTo(3);
    assertThatThrownBy(() -> v.hostId(2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ASCEND_RT_VISIBLE_DEVICES lists [1, 3], which has no device 2");
  }
}
