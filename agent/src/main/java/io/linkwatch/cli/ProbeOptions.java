package io.linkwatch.cli;

import io.linkwatch.runtime.Backend;
import picocli.CommandLine.Option;

/** Options every one-shot probe command shares. */
final class ProbeOptions {
  @Option(
      names = "--backend",
      paramLabel = "BACKEND",
      converter = BackendConverter.class,
      defaultValue = "auto",
      description =
          "Device runtime: auto (ascend or cuda, whichever library is installed), ascend (CANN's"
              + " libascendcl.so), cuda (libcuda.so.1), sim or sim-cuda (the simulator through"
              + " either API). Default: ${DEFAULT-VALUE}.")
  Backend backend;

  @Option(names = "--json", description = "Print the results as JSON instead of a table.")
  boolean json;

  @Option(
      names = "--force",
      description =
          "Measure devices that run other work too (their figures are then contended). Without it"
              + " a busy device is reported and left alone.")
  boolean force;

  @Option(
      names = "--topology-command",
      paramLabel = "COMMAND",
      description =
          "Asked for link types when aclrtGetDevicesTopo cannot answer; words split on spaces. "
              + "Default: npu-smi info -t topo.")
  String topologyCommand;
}
