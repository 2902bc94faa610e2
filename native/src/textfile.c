/* Reading a whole (small) text file: the profile and the control file. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *lw_read_text_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (cap - len < 2) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}
