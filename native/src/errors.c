/*
 * errors.c - per-thread "recent error" text and HCCL result strings.
 *
 * The real runtime keeps the text of failures per thread until
 * aclGetRecentErrMsg hands it out and clears it (aclGetRecentErrMsg.md: call
 * it after every failed call, or messages pile up; of several, the topmost is
 * the newest).  The sim does the same: each failure, HCCL's included, puts its
 * text on top of what is still unread, so a caller that does not drain after a
 * failure gets stale text with its next error.  Every failing path must leave a
 * message that names the function.  The CUDA face keeps no text (see lw_err).
 */
#include "internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char stored[512];
static _Thread_local bool has_stored;
/* A second buffer so the returned pointer stays valid until the next call
 * even though the stored message is cleared. */
static _Thread_local char handed_out[512];

void lw_err(const char *fmt, ...)
{
    /* The CUDA face reports by code only (cuGetErrorString is a fixed text per
     * code): its failures must not sit in AscendCL's unread messages. */
    if (lw_face == LW_FACE_CUDA)
        return;
    char msg[sizeof stored];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = strlen(msg);
    if (has_stored && n + 2 < sizeof stored) {
        /* newest first; the oldest text is what is cut when the buffer is full */
        size_t keep = strlen(stored);
        if (n + 1 + keep >= sizeof stored)
            keep = sizeof stored - n - 2;
        memmove(stored + n + 1, stored, keep);
        stored[n + 1 + keep] = '\0';
        stored[n] = '\n';
        memcpy(stored, msg, n);
    } else {
        memcpy(stored, msg, n + 1);
    }
    has_stored = true;
}

const char *aclGetRecentErrMsg(void)
{
    if (lw_enter("aclGetRecentErrMsg") != 0)
        return NULL;
    if (!has_stored)
        return NULL;
    snprintf(handed_out, sizeof handed_out, "%s", stored);
    has_stored = false;
    stored[0] = '\0';
    return handed_out;
}

const char *HcclGetErrorString(HcclResult code)
{
    if (lw_enter("HcclGetErrorString") != 0)
        return NULL;
    switch ((int)code) {
    case HCCL_SUCCESS: return "no error";
    case HCCL_E_PARA: return "parameter error";
    case HCCL_E_PTR: return "empty pointer";
    case HCCL_E_MEMORY: return "memory error";
    case HCCL_E_INTERNAL: return "internal error";
    case HCCL_E_NOT_SUPPORT: return "not support feature";
    case HCCL_E_NOT_FOUND: return "not found specific resource";
    case HCCL_E_UNAVAIL: return "resource unavailable";
    case HCCL_E_SYSCALL: return "call system interface error";
    case HCCL_E_TIMEOUT: return "timeout";
    case HCCL_E_OPEN_FILE_FAILURE: return "open file fail";
    case HCCL_E_TCP_CONNECT: return "tcp connect fail";
    case HCCL_E_ROCE_CONNECT: return "roce connect fail";
    case HCCL_E_TCP_TRANSFER: return "tcp transfer fail";
    case HCCL_E_ROCE_TRANSFER: return "roce transfer fail";
    case HCCL_E_RUNTIME: return "call runtime api fail";
    case HCCL_E_DRV: return "call driver api fail";
    case HCCL_E_PROFILING: return "call profiling api fail";
    case HCCL_E_CCE: return "call cce api fail";
    case HCCL_E_NETWORK: return "call network api fail";
    case HCCL_E_AGAIN: return "try again";
    case HCCL_E_REMOTE: return "error cqe";
    case HCCL_E_SUSPENDING: return "error communicator suspending";
    case HCCL_E_OPRETRY_FAIL: return "retry constraint";
    case HCCL_E_OOM: return "out of memory";
    case 1041: return "communicator in error status";
    default: return "unknown error";
    }
}
