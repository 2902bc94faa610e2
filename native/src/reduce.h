/* reduce.h - element-wise reductions used by HcclAllReduce. */
#ifndef LW_REDUCE_H
#define LW_REDUCE_H
#include <stddef.h>
#include <stdint.h>
/* Bytes per element, 0 when the type is not supported by the sim. */
size_t lw_dtype_size(int type);
/* recv[r][i] = op over r' of send[r'][i], for every rank r. */
void lw_reduce(void *const *send, void *const *recv, int n, uint64_t count, int type, int op);
#endif
