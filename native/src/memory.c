/*
 * memory.c - device memory, page-locked host memory and registered host
 * ranges, all kept in one registry so that any address inside an allocation
 * resolves to it (copies infer their direction and device from it).
 *
 * Device memory is anonymous mmap with MAP_NORESERVE: a 64 GiB "HBM" costs
 * nothing until it is touched, and each allocation is page aligned like the
 * real runtime's (which is at least 32 B aligned).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct lw_alloc *reg;     /* guarded by lw.lock */
static size_t nreg, capreg;

static const char *kind_name(int kind)
{
    return kind == LW_MEM_DEVICE ? "device" : kind == LW_MEM_HOST ? "host" : "registered";
}

static bool contains(const struct lw_alloc *a, const void *addr)
{
    const char *p = addr;
    return p >= a->base && p < a->base + (a->size ? a->size : 1);
}

bool lw_find(const void *addr, int kind, struct lw_alloc *out)
{
    for (size_t i = 0; i < nreg; i++)
        if (reg[i].kind == kind && reg[i].face == lw_face && contains(&reg[i], addr)) {
            if (out)
                *out = reg[i];
            return true;
        }
    return false;
}

bool lw_is_pinned(const void *addr)
{
    return lw_find(addr, LW_MEM_HOST, NULL) || lw_find(addr, LW_MEM_REGISTERED, NULL);
}

int lw_reg_add(struct lw_alloc a)
{
    a.face = lw_face;
    if (nreg == capreg) {
        size_t ncap = capreg ? capreg * 2 : 64;
        struct lw_alloc *n = realloc(reg, ncap * sizeof *n);
        if (!n)
            return -1;
        reg = n;
        capreg = ncap;
    }
    reg[nreg++] = a;
    lw_device_written();
    return 0;
}

bool lw_reg_overlap(const void *p, size_t n, struct lw_alloc *hit)
{
    const char *c = p;
    for (size_t i = 0; i < nreg; i++)
        if (c < reg[i].base + reg[i].size && reg[i].base < c + n) {
            if (hit)
                *hit = reg[i];
            return true;
        }
    return false;
}

int lw_reg_remove(const char *fn, const void *p, int kind, struct lw_alloc *out)
{
    for (size_t i = 0; i < nreg; i++) {
        if (reg[i].kind != kind || reg[i].face != lw_face || !contains(&reg[i], p))
            continue;
        if (reg[i].base != p) {
            lw_err("%s: %p is inside a %s allocation at %p (+%zu), not its start", fn, p,
                   kind_name(kind), (void *)reg[i].base, (size_t)((const char *)p - reg[i].base));
            return -1;
        }
        *out = reg[i];
        reg[i] = reg[--nreg];
        lw_device_written();
        return 0;
    }
    lw_err("%s: %p is not a live %s allocation (unknown or already freed)", fn, p, kind_name(kind));
    return -1;
}

size_t lw_page_round(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    return (n + pg - 1) / pg * pg;
}

/* Freed mappings of 1 MiB and more are kept for the next allocation of the
 * same length.  A fresh anonymous mapping pays a page fault per 4 KiB on first
 * touch (about 0.2 s per 256 MiB on a small host, against 25 ms for a copy),
 * which a p2p run would pay again for its two buffers in each direction, and a
 * real device's memory does not.  A kept mapping is moved to a new address when
 * it is handed out (mremap), so a pointer to the freed allocation still
 * resolves to nothing, and zeroed (a tenth of the faults' cost), so that no
 * run can find the bytes an earlier one left, just as with a fresh mapping. */
#define SPARE_SLOTS 4
#define SPARE_MIN (1u << 20)
#define SPARE_MAX_BYTES (2ull << 30)
#define HUGE_MIN (2u << 20)
static struct { void *base; size_t len; } spare[SPARE_SLOTS];
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;

static void *take_spare(size_t len)
{
    void *base = NULL;
    pthread_mutex_lock(&spare_lock);
    for (int i = 0; i < SPARE_SLOTS && !base; i++)
        if (spare[i].base && spare[i].len == len) {
            base = spare[i].base;
            spare[i].base = NULL;
        }
    pthread_mutex_unlock(&spare_lock);
    if (!base)
        return NULL;
    void *to = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *p = to == MAP_FAILED ? MAP_FAILED : mremap(base, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
    if (p == MAP_FAILED) {
        munmap(base, len);
        if (to != MAP_FAILED)
            munmap(to, len);
        return NULL;
    }
    memset(p, 0, len);
    return p;
}

void *lw_map_bytes(size_t n)
{
    size_t len = lw_page_round(n);
    void *p = len >= SPARE_MIN ? take_spare(len) : NULL;
    if (p)
        return p;
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* Large buffers on huge pages where the kernel offers them (transparent huge
     * pages, also in its "madvise" mode), as the runtime's default policy
     * ACL_MEM_MALLOC_HUGE_FIRST asks of the device: a first touch then faults once
     * per 2 MiB instead of once per 4 KiB.  Without them (THP off, or the advice
     * refused) the mapping works as before, only slower to touch first. */
    if (len >= HUGE_MIN)
        (void)madvise(p, len, MADV_HUGEPAGE);
    return p;
}

void lw_unmap_bytes(void *p, size_t n)
{
    size_t len = lw_page_round(n);
    void *evicted = NULL;
    size_t evicted_len = 0;
    if (len >= SPARE_MIN) {
        pthread_mutex_lock(&spare_lock);
        size_t kept = 0;
        int slot = -1;
        for (int i = 0; i < SPARE_SLOTS; i++) {
            if (spare[i].base)
                kept += spare[i].len;
            else if (slot < 0)
                slot = i;
        }
        if (slot < 0) { /* all slots taken: the first goes */
            slot = 0;
            evicted = spare[0].base;
            evicted_len = spare[0].len;
            kept -= evicted_len;
            spare[0].base = NULL;
        }
        if (kept + len <= SPARE_MAX_BYTES) {
            spare[slot].base = p;
            spare[slot].len = len;
            p = NULL;
        }
        pthread_mutex_unlock(&spare_lock);
    }
    if (evicted)
        munmap(evicted, evicted_len);
    if (p)
        munmap(p, len);
}

bool lw_policy_is_p2p(int policy)
{
    int page = policy & 0xff;   /* the band-width and read-only bits lie above */
    return page == ACL_MEM_MALLOC_HUGE_FIRST_P2P || page == ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
           page == ACL_MEM_MALLOC_NORMAL_ONLY_P2P || page == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

const char *lw_policy_name(int policy)
{
    static const char *names[] = { "ACL_MEM_MALLOC_HUGE_FIRST", "ACL_MEM_MALLOC_HUGE_ONLY",
                                   "ACL_MEM_MALLOC_NORMAL_ONLY", "ACL_MEM_MALLOC_HUGE_FIRST_P2P",
                                   "ACL_MEM_MALLOC_HUGE_ONLY_P2P", "ACL_MEM_MALLOC_NORMAL_ONLY_P2P",
                                   "ACL_MEM_MALLOC_HUGE1G_ONLY", "ACL_MEM_MALLOC_HUGE1G_ONLY_P2P" };
    int page = policy & 0xff;
    return page < 8 ? names[page] : "a policy outside aclrtMemMallocPolicy";
}

/* aclrtMalloc and aclrtMallocWithCfg alike.  The policy is kept with the
 * allocation: huge, normal and P2P pages all behave alike over host memory, but
 * a copy between two devices checks that both sides asked for P2P memory. */
static aclError device_malloc(const char *fn, void **devPtr, size_t size, int policy)
{
    if (!devPtr || size == 0) {
        lw_err("%s: %s", fn, !devPtr ? "devPtr is NULL" : "size is 0");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    int dev = -1;
    int rc = lw_current(fn, &dev);
    if (!rc && size > lw_free_bytes(dev)) {
        lw_err("%s: out of device memory on device %d: requested %zu bytes, %llu free", fn,
               dev, size, (unsigned long long)lw_free_bytes(dev));
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    void *p = NULL;
    if (!rc) {
        p = lw_map_bytes(size);
        struct lw_alloc a = { p, size, lw_page_round(size), dev, LW_MEM_DEVICE, policy, 0 };
        if (!p || lw_reg_add(a) != 0) {
            if (p)
                lw_unmap_bytes(p, size);
            lw_err("%s: host memory behind device %d exhausted (%zu bytes)", fn, dev, size);
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            lw.used[dev] += size;
            lw_count(LW_CNT_DEVICE, 1);
            *devPtr = p;
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    int rc = lw_enter("aclrtMalloc");
    return rc ? rc : device_malloc("aclrtMalloc", devPtr, size, (int)policy);
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig *cfg)
{
    int rc = lw_enter("aclrtMallocWithCfg");
    if (rc)
        return rc;
    if (cfg && cfg->numAttrs > 0 && !cfg->attrs) {
        lw_err("aclrtMallocWithCfg: cfg has %zu attributes but attrs is NULL", cfg->numAttrs);
        return ACL_ERROR_INVALID_PARAM;
    }
    return device_malloc("aclrtMallocWithCfg", devPtr, size, (int)policy);
}

aclError aclrtFree(void *devPtr)
{
    int rc = lw_enter("aclrtFree");
    if (rc)
        return rc;
    if (!devPtr) {
        lw_err("aclrtFree: devPtr is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    struct lw_alloc a;
    if (lw_reg_remove("aclrtFree", devPtr, LW_MEM_DEVICE, &a) != 0) {
        lw_unlock();
        return ACL_ERROR_INVALID_PARAM;
    }
    lw.used[a.device] -= a.size;
    lw_count(LW_CNT_DEVICE, -1);
    lw_unlock();
    lw_unmap_bytes(a.base, a.mapped);
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    int rc = lw_enter("aclrtMallocHost");
    if (rc)
        return rc;
    if (!hostPtr || size == 0) {
        lw_err("aclrtMallocHost: %s", !hostPtr ? "hostPtr is NULL" : "size is 0");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    rc = lw_check_init("aclrtMallocHost");
    if (!rc) {
        void *p = lw_map_bytes(size);
        struct lw_alloc a = { p, size, lw_page_round(size), -1, LW_MEM_HOST, -1, 0 };
        if (!p || lw_reg_add(a) != 0) {
            if (p)
                lw_unmap_bytes(p, size);
            lw_err("aclrtMallocHost: cannot allocate %zu bytes", size);
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            lw_count(LW_CNT_HOST, 1);
            *hostPtr = p;
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtFreeHost(void *hostPtr)
{
    int rc = lw_enter("aclrtFreeHost");
    if (rc)
        return rc;
    if (!hostPtr) {
        lw_err("aclrtFreeHost: hostPtr is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    struct lw_alloc a;
    if (lw_reg_remove("aclrtFreeHost", hostPtr, LW_MEM_HOST, &a) != 0) {
        lw_unlock();
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_count(LW_CNT_HOST, -1);
    lw_unlock();
    lw_unmap_bytes(a.base, a.mapped);
    return ACL_SUCCESS;
}

aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    int rc = lw_enter("aclrtHostRegisterV2");
    if (rc)
        return rc;
    if (!ptr || size == 0 || ((uintptr_t)ptr & 4095u) || !(flag & ACL_HOST_REG_PINNED)) {
        lw_err("aclrtHostRegisterV2: %s", !ptr ? "ptr is NULL" : size == 0 ? "size is 0"
               : ((uintptr_t)ptr & 4095u) ? "ptr must be 4 KiB aligned"
               : "flag must include ACL_HOST_REG_PINNED (0x10000000)");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    rc = lw_check_init("aclrtHostRegisterV2");
    struct lw_alloc hit;
    /* Overlap with anything already known (either face's) is a caller bug. */
    if (!rc && lw_reg_overlap(ptr, (size_t)size, &hit)) {
        lw_err("aclrtHostRegisterV2: [%p, +%llu) overlaps a %s range at %p", ptr,
               (unsigned long long)size, kind_name(hit.kind), (void *)hit.base);
        rc = ACL_ERROR_INVALID_PARAM;
    }
    if (!rc) {
        struct lw_alloc a = { (char *)ptr, (size_t)size, 0, -1, LW_MEM_REGISTERED, -1, 0 };
        if (lw_reg_add(a) != 0) {
            lw_err("aclrtHostRegisterV2: out of memory");
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            lw_count(LW_CNT_REGISTERED, 1);
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtHostUnregister(void *ptr)
{
    int rc = lw_enter("aclrtHostUnregister");
    if (rc)
        return rc;
    if (!ptr) {
        lw_err("aclrtHostUnregister: ptr is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    struct lw_alloc a;
    if (lw_reg_remove("aclrtHostUnregister", ptr, LW_MEM_REGISTERED, &a) != 0) {
        lw_unlock();
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_count(LW_CNT_REGISTERED, -1);
    lw_unlock();
    return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
    int rc = lw_enter("aclrtGetMemInfo");
    if (rc)
        return rc;
    if (!free || !total || (int)attr < 0 || (int)attr > 11) {
        lw_err("aclrtGetMemInfo: %s", (!free || !total) ? "free/total is NULL"
               : "attr out of range 0..11");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    int dev = -1;
    rc = lw_current("aclrtGetMemInfo", &dev);
    if (!rc) {
        /* DDR and HBM attrs both answer with the one memory the profile gives. */
        *total = lw.prof.memory[dev];
        *free = lw_free_bytes(dev);
    }
    lw_unlock();
    return rc;
}

/* Free device memory: the profile's memory less this process's allocations and
 * the memory that `busy` control lines give other processes (those lines number
 * devices as the host does).  Lock held. */
uint64_t lw_free_bytes(int dev)
{
    struct lw_workload w[16];
    int n = lw_workloads(lw_physical(dev), w, 16);
    uint64_t taken = lw.used[dev];
    for (int i = 0; i < n && i < 16; i++)
        taken += w[i].memory;
    return taken >= lw.prof.memory[dev] ? 0 : lw.prof.memory[dev] - taken;
}
