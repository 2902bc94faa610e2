/*
 * visible.c - ASCEND_RT_VISIBLE_DEVICES: which of the profile's devices an
 * AscendCL process sees, renumbered from 0 (env_vars/ASCEND_RT_VISIBLE_DEVICES.md).
 *
 * The profile and the control file number devices as the host does (DCMI's
 * and npu-smi's logic ids, which the variable does not change); aclInit keeps
 * the visible ones in lw.prof under their new numbers, with their physical ids,
 * and lw.physical[] leads back to the host's numbers.  cuInit does the same
 * with CUDA_VISIBLE_DEVICES for the CUDA face.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int lw_visible_devices(int ndev, int *out)
{
    const char *v = getenv("ASCEND_RT_VISIBLE_DEVICES");
    if (!v) {
        for (int i = 0; i < ndev; i++)
            out[i] = i;
        return ndev;
    }
    /* As documented: ids are read up to the first character that is not part of
     * a comma-separated list, or the first invalid id ("1, 2,3" reads 1; "1,3,8"
     * on 8 devices reads 1 and 3); only ascending lists are supported, so a
     * smaller or repeated id ends the list too. */
    int n = 0, last = -1;
    const char *s = v;
    while (isdigit((unsigned char)*s) && n < ndev) {
        char *end;
        long id = strtol(s, &end, 10);
        if (id >= ndev || id <= last || (*end != ',' && *end != '\0'))
            break;
        out[n++] = (int)id;
        last = (int)id;
        if (*end == '\0')
            break;
        s = end + 1;
    }
    return n;
}

int lw_visible_devices_cuda(int ndev, int *out)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v) {
        for (int i = 0; i < ndev; i++)
            out[i] = i;
        return ndev;
    }
    /* A comma-separated list of indices in any order, each listed device taking
     * the next ordinal; the list ends at the first entry that is not a valid
     * index - out of range, repeated, or not a plain number (the UUID and MIG
     * forms included, which the sim does not model); empty: no device. */
    int n = 0;
    const char *s = v;
    while (isdigit((unsigned char)*s) && n < ndev) {
        char *end;
        long id = strtol(s, &end, 10);
        bool repeated = false;
        for (int i = 0; i < n; i++)
            repeated |= out[i] == id;
        if (id >= ndev || repeated || (*end != ',' && *end != '\0'))
            break;
        out[n++] = (int)id;
        if (*end == '\0')
            break;
        s = end + 1;
    }
    return n;
}

void lw_profile_restrict(struct lw_profile *p, const int *keep, int n)
{
    struct lw_profile *full = malloc(sizeof *full);
    if (!full)
        abort();
    *full = *p;
    p->ndev = n;
    for (int i = 0; i < n; i++) {
        p->memory[i] = full->memory[keep[i]];
        p->phy[i] = full->phy[keep[i]];
        p->pci[i] = full->pci[keep[i]];
        memcpy(p->affinity[i], full->affinity[keep[i]], sizeof p->affinity[i]);
        for (int j = 0; j < n; j++)
            p->link[i][j] = full->link[keep[i]][keep[j]];
    }
    free(full);
}

int lw_physical(int dev)
{
    return lw.initialized && dev >= 0 && dev < lw.prof.ndev ? lw.physical[dev] : dev;
}

int lw_logical(int host_dev)
{
    if (!lw.initialized)
        return -1;
    for (int i = 0; i < lw.prof.ndev; i++)
        if (lw.physical[i] == host_dev)
            return i;
    return -1;
}
