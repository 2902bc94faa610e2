/* check.h - a tiny test helper: CHECK* record failures, RUN counts tests. */
#ifndef LW_CHECK_H
#define LW_CHECK_H
#include "linkwatch_sim.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

extern int check_failures;     /* failures inside the running test */

#define CHECK(cond) do { if (!(cond)) { check_failures++; \
    fprintf(stderr, "  FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_RC(call, want) do { long long got_ = (long long)(call); if (got_ != (long long)(want)) { \
    check_failures++; fprintf(stderr, "  FAIL %s:%d: %s = %lld, want %lld (%s)\n", __FILE__, __LINE__, \
    #call, got_, (long long)(want), last_msg()); } } while (0)
#define CHECK_NEAR(val, want, frac) do { double v_ = (val), w_ = (want); \
    if (!(v_ >= w_ * (1 - (frac)) && v_ <= w_ * (1 + (frac)))) { check_failures++; \
    fprintf(stderr, "  FAIL %s:%d: %s = %g, want %g +-%g%%\n", __FILE__, __LINE__, #val, v_, w_, \
    (frac) * 100); } } while (0)
#define CHECK_MSG(substr) do { const char *m_ = aclGetRecentErrMsg(); if (!m_ || !strstr(m_, (substr))) { \
    check_failures++; fprintf(stderr, "  FAIL %s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, \
    m_ ? m_ : "(null)", (substr)); } } while (0)

/* Helpers from test_main.c */
const char *last_msg(void);                   /* aclGetRecentErrMsg or "" */
const char *tmp_path(const char *name);       /* file inside the test's temp dir */
void write_file(const char *path, const char *text);   /* atomic (rename) */
int use_profile(const char *text);            /* NULL = built-in; returns aclInit's code */
void set_control(const char *text);           /* NULL removes the control file */
double median(double *v, int n);
/* Median modeled GB/s of count-byte copies on stream s, timed with events. */
double copy_gbps(void *dst, const void *src, size_t count, aclrtStream s, int iters);
/* Peer access 0<->1 and a `bytes` buffer on each device; device 0 is current after. */
void peer_pair(void **d0, void **d1, size_t bytes);

#endif
