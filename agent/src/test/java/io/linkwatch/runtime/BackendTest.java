package io.linkwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.runtime.backends.DeviceRuntimes;
import org.junit.jupiter.api.Test;

class BackendTest {
  @Test
  void idsAreWhatOperatorsType() {
    assertThat(Backend.parse("sim-cuda")).isEqualTo(Backend.SIM_CUDA);
    assertThat(Backend.parse(" CUDA ")).isEqualTo(Backend.CUDA);
    assertThat(Backend.ids()).isEqualTo("auto, ascend, cuda, sim, sim-cuda");
    assertThatThrownBy(() -> Backend.parse("rocm"))
        .hasMessage("unknown backend 'rocm' (expected one of auto, ascend, cuda, sim, sim-cuda)");
  }

  @Test
  void onlyTheSimsAreSimulatedAndAutoIsNoVendor() {
    assertThat(Backend.SIM.simulated()).isTrue();
    assertThat(Backend.SIM_CUDA.simulated()).isTrue();
    assertThat(Backend.CUDA.simulated()).isFalse();
    assertThat(Backend.SIM_CUDA.vendor()).isEqualTo(Backend.Vendor.NVIDIA);
    assertThat(Backend.AUTO.vendor()).isEqualTo(Backend.Vendor.NONE);
  }

  /** This machine has neither vendor's library: auto names both and the sims, never picks one. */
  @Test
  void autoOnAHostWithoutEitherLibraryIsAClearError() {
    assertThatThrownBy(() -> DeviceRuntimes.resolve(Backend.AUTO))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("libascendcl.so")
        .hasMessageContaining("libcuda.so.1");
    assertThat(DeviceRuntimes.resolve(Backend.SIM_CUDA)).isEqualTo(Backend.SIM_CUDA);
  }
}
