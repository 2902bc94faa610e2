/*
 * exitflush.c - the wait a real CANN process makes at exit for its device-side
 * application logs to reach the host.  Documented (CANN env var reference,
 * ASCEND_LOG_DEVICE_FLUSH_TIMEOUT): before the process exits there is a
 * default delay of 2000 ms; the variable sets it, an integer in [0, 180000] ms;
 * unset, empty or invalid means the default; 0 means no wait.
 *
 * The sim holds the exit the same way, in any process that called aclInit, and
 * says so on stderr, so a caller that forgot to set the variable (the agent's
 * workers, which exit after every run) is seen, not just slower.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static bool used;

void lw_note_acl_used(void) { used = true; }

/* The documented wait in ms for the variable's value (NULL when unset). */
static long flush_timeout_ms(const char *value)
{
    if (!value || !*value)
        return 2000;
    char *end;
    errno = 0;
    long ms = strtol(value, &end, 10);
    if (errno || *end || ms < 0 || ms > 180000)
        return 2000;
    return ms;
}

__attribute__((destructor)) static void hold_exit_for_device_logs(void)
{
    if (!used)
        return;
    const char *value = getenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT");
    long ms = flush_timeout_ms(value);
    if (ms == 0)
        return;
    fprintf(stderr, "linkwatch-sim: exit held %ld ms for device logs (ASCEND_LOG_DEVICE_FLUSH_TIMEOUT %s)\n",
            ms, value ? value : "unset");
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}
