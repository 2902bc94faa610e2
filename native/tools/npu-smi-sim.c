/*
 * npu-smi-sim.c - stand-in for `npu-smi info -t topo` on the simulator, so
 * the agent's npu-smi parser can be run against the same profile the sim uses.
 * Layout follows the real tool: a header of NPU labels plus "CPU Affinity",
 * one row per device ("X" on the diagonal), then the Legend block.
 */
#include "linkwatch_sim.h"
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: npu-smi info -t topo\n(linkwatch simulator stand-in: only 'info -t topo' is supported)\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 4 || strcmp(argv[1], "info") || strcmp(argv[2], "-t") || strcmp(argv[3], "topo"))
        return usage();
    uint32_t n = 0;
    if (aclInit(NULL) != 0 || aclrtGetDeviceCount(&n) != 0) {
        const char *m = aclGetRecentErrMsg();
        fprintf(stderr, "npu-smi: %s\n", m ? m : "cannot read the simulator profile");
        return 1;
    }
    bool any_affinity = false;
    for (uint32_t i = 0; i < n; i++)
        any_affinity |= linkwatch_sim_affinity((int32_t)i) != NULL;

    printf("%-10s", "");
    for (uint32_t j = 0; j < n; j++) {
        char label[16];
        snprintf(label, sizeof label, "NPU%u", j);
        printf("%-10s", label);
    }
    printf("%s\n", any_affinity ? "CPU Affinity" : "");
    for (uint32_t i = 0; i < n; i++) {
        char label[16];
        snprintf(label, sizeof label, "NPU%u", i);
        printf("%-10s", label);
        for (uint32_t j = 0; j < n; j++) {
            const char *tok = i == j ? "X" : linkwatch_sim_link_name((int32_t)i, (int32_t)j);
            printf("%-10s", tok ? tok : "NA");
        }
        const char *aff = linkwatch_sim_affinity((int32_t)i);
        printf("%s\n", aff ? aff : "");
    }
    printf("\nLegend:\n\n"
           "  X    = Self\n"
           "  SYS  = Path traversing PCIe and NUMA nodes. Nodes are connected through SMP, such as QPI, UPI.\n"
           "  PHB  = Path traversing PCIe and the PCIe host bridge of a CPU.\n"
           "  PIX  = Path traversing a single PCIe switch\n"
           "  PXB  = Path traversing multiple PCIe switches\n"
           "  HCCS = Connection traversing HCCS.\n"
           "  SIO  = Connection traversing SIO (die-to-die in one module).\n"
           "  HCCS_SW = Connection traversing HCCS through an HCCS switch.\n"
           "  NA   = Unknown relationship.\n");
    aclFinalize();
    return 0;
}
