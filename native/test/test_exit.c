/* test_exit.c - the documented wait for device logs at process exit. */
#define _GNU_SOURCE
#include "check.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Exits a child (which inherits this process's aclInit) with the variable as given (NULL:
 * unset); returns how long the exit took and what the child printed on stderr. */
static double child_exit_seconds(const char *value, char *said, size_t n)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        if (value)
            setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", value, 1);
        else
            unsetenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT");
        exit(0);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], said, n - 1);
    said[got > 0 ? got : 0] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

void test_exit_waits_for_device_logs(void)
{
    char said[512];
    double unset = child_exit_seconds(NULL, said, sizeof said);
    CHECK(unset >= 1.9);
    CHECK(strstr(said, "exit held 2000 ms for device logs (ASCEND_LOG_DEVICE_FLUSH_TIMEOUT unset)") != NULL);
    double zero = child_exit_seconds("0", said, sizeof said);
    CHECK(zero < 1.0);
    CHECK(said[0] == '\0');
    /* Invalid means the default, as documented; a valid value is the wait. */
    double invalid = child_exit_seconds("abc", said, sizeof said);
    CHECK(invalid >= 1.9);
    CHECK(strstr(said, "exit held 2000 ms for device logs (ASCEND_LOG_DEVICE_FLUSH_TIMEOUT abc)") != NULL);
    double short_wait = child_exit_seconds("300", said, sizeof said);
    CHECK(short_wait >= 0.29 && short_wait < 1.9);
    CHECK(strstr(said, "exit held 300 ms") != NULL);
}
