/*
 * npu-smi-sim.c - stand-in for `npu-smi` on the simulator, so the agent's
 * npu-smi parsers run against the same profile and control file the sim uses:
 *   info -t topo  a header of NPU labels plus "CPU Affinity", one row per
 *                 device ("X" on the diagonal), then the Legend block;
 *   info -m       the device map: NPU ID, Chip ID, Chip Logic ID, Chip Name;
 *   info          the status table, then the process table, whose rows come
 *                 from the control file's `busy` lines (not through DCMI, so a
 *                 DCMI fault leaves this table working).
 * As on an A3, an NPU card carries two chips: logical device N is NPU N / 2,
 * chip N % 2.  This process holds no device, so (unlike the real tool) it
 * never lists the agent's own worker.
 */
#define _POSIX_C_SOURCE 200809L  /* setenv */
#include "linkwatch_sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: npu-smi info [-m | -t topo]\n(linkwatch simulator stand-in)\n");
    return 2;
}

static const char *const RULE =
    "+===========================+===============+====================================================+\n";

static int device_map(uint32_t n)
{
    printf("        NPU ID                         Chip ID                        Chip Logic ID                  Chip Name\n");
    for (uint32_t i = 0; i < n; i++)
        printf("        %-31u%-31u%-31u%s\n", i / 2, i % 2, i, aclrtGetSocName());
    return 0;
}

static int status(uint32_t n)
{
    printf("+------------------------------------------------------------------------------------------------+\n"
           "| npu-smi 25.2.3 (linkwatch sim)   Version: 25.2.3                                               |\n"
           "+---------------------------+---------------+----------------------------------------------------+\n"
           "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
           "| Chip  Phy-ID              | Bus-Id        | AICore(%%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n");
    printf("%s", RULE);
    for (uint32_t i = 0; i < n; i += 2) {
        printf("| %-25u | %-13s | %-50s |\n", i / 2, "OK", "");
        for (uint32_t c = i; c < n && c < i + 2; c++)
            printf("| %-4u  %-19u | %-13s | %-50s |\n", c % 2, c, "", "");
        printf("%s", RULE);
    }
    printf("+---------------------------+---------------+----------------------------------------------------+\n"
           "| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |\n");
    printf("%s", RULE);
    for (uint32_t i = 0; i < n; i += 2) {
        int rows = 0;
        for (uint32_t c = i; c < n && c < i + 2; c++) {
            int32_t pid[8];
            uint64_t mem[8];
            int k = linkwatch_sim_processes((int32_t)c, pid, mem, 8);   /* npu-smi shows 8 at most */
            for (int j = 0; j < k && j < 8; j++, rows++)
                printf("| %-7u %-18u| %-13d | %-24s | %-24llu|\n", c / 2, c % 2, pid[j], "",
                       (unsigned long long)(mem[j] / (1024ULL * 1024ULL)));
        }
        if (!rows)
            printf("| No running processes found in NPU %-61u|\n", i / 2);
        printf("%s", RULE);
    }
    return 0;
}

int main(int argc, char **argv)
{
    bool topo = argc == 4 && !strcmp(argv[1], "info") && !strcmp(argv[2], "-t") && !strcmp(argv[3], "topo");
    bool map = argc == 3 && !strcmp(argv[1], "info") && !strcmp(argv[2], "-m");
    bool info = argc == 2 && !strcmp(argv[1], "info");
    if (!topo && !map && !info)
        return usage();
    uint32_t n = 0;
    /* The stand-in reads the sim's profile through the sim's runtime; the real npu-smi is no
     * AscendCL application and has no exit held for device logs (see exitflush.c). */
    setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "0", 1);
    /* npu-smi lists every device whatever the caller's ASCEND_RT_VISIBLE_DEVICES, which only
     * renumbers an AscendCL process's own devices. */
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    if (aclInit(NULL) != 0 || aclrtGetDeviceCount(&n) != 0) {
        const char *m = aclGetRecentErrMsg();
        fprintf(stderr, "npu-smi: %s\n", m ? m : "cannot read the simulator profile");
        return 1;
    }
    if (map || info) {
        int rc = map ? device_map(n) : status(n);
        aclFinalize();
        return rc;
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
