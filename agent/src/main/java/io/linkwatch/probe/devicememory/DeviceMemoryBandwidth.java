package io.linkwatch.probe.devicememory;

import io.linkwatch.probe.result.Charted;
import io.linkwatch.probe.result.LocalCopy;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import java.util.Locale;

/** Device-local copy bandwidth: bytes copied per second, the reference links are compared to. */
public record DeviceMemoryBandwidth(int device, long sizeBytes, double bytesPerSecond)
    implements Charted, LocalCopy {
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "dev%d %s %sGB/s local",
        device,
        ByteSize.format(sizeBytes),
        Gbps.format(bytesPerSecond));
  }

  @Override
  public void chart(Sink sink) {
    sink.accept("bandwidth", sizeBytes(), BYTES_PER_SECOND, bytesPerSecond());
  }
}
