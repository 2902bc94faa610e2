/*
 * hccn-tool-sim.c - stand-in for `hccn_tool` on the simulator, so the agent's
 * hccn_tool reader and parsers run against the same profile, control file and
 * counters the sim uses.  It answers `hccn_tool -i DEVICE -OPTION -g` for the
 * options the agent reads (-link, -speed, -link_stat, -stat, -optical, -lldp,
 * -net_health, -ip) in the shapes of a current driver; the control file's
 * `nic DEVICE ...` lines set what it reports, and `fail|hang|crash
 * hccn_tool:OPTION` break one option.  Like the real tool it serves one call
 * at a time: a second call while one runs answers "hccn_tool is busy".
 */
#define _GNU_SOURCE  /* setenv, flock */
#include "linkwatch_sim.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static const char *const OPTIONS[] = {
    "-link", "-speed", "-link_stat", "-stat", "-optical", "-lldp", "-net_health", "-ip", NULL
};

static int usage(void)
{
    fprintf(stderr, "usage: hccn_tool -i DEVICE -link|-speed|-link_stat|-stat|-optical|-lldp|-net_health|-ip -g\n"
                    "(linkwatch simulator stand-in)\n");
    return 2;
}

/* One call at a time, host-wide: a lock file beside the control file. */
static bool take_tool_lock(void)
{
    const char *ctl = getenv("LINKWATCH_SIM_CONTROL");
    if (!ctl || !*ctl)
        return true;
    char path[4096];
    snprintf(path, sizeof path, "%s.hccn_tool.lock", ctl);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    return fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0;   /* held until exit */
}

static uint64_t stat_of(const struct linkwatch_sim_nic *s, const char *kind)
{
    for (int i = 0; linkwatch_sim_nic_error_kind(i); i++)
        if (strcmp(linkwatch_sim_nic_error_kind(i), kind) == 0)
            return s->errors[i];
    return 0;
}

static void print_stat(const struct linkwatch_sim_nic *s)
{
    static const char *const order[] = {
        "mac_tx_mac_pause", "mac_rx_mac_pause", "mac_tx_pfc_pkt", "mac_rx_pfc_pkt", "mac_tx_bad_pkt",
        "mac_rx_bad_pkt", "mac_tx_bad_oct", "mac_rx_bad_oct", "roce_rx_all_pkt", "roce_rx_err_pkt",
        "roce_rx_cnp_pkt", "roce_tx_all_pkt", "roce_tx_err_pkt", "roce_tx_cnp_pkt", "roce_new_pkt_rty",
        "roce_out_of_order", "roce_qp_status_err", "roce_unexpected_ack", "roce_verification_err",
        "nic_tx_all_pkg", "nic_tx_all_oct", "nic_rx_all_pkg", "nic_rx_all_oct", "mac_rx_fcs_err_pkt", NULL
    };
    printf("packet statistics:\n");
    for (int i = 0; order[i]; i++) {
        const char *k = order[i];
        uint64_t v = !strcmp(k, "nic_tx_all_oct") ? s->tx_octets
                   : !strcmp(k, "nic_rx_all_oct") ? s->rx_octets
                   : !strcmp(k, "nic_tx_all_pkg") || !strcmp(k, "roce_tx_all_pkt") ? s->tx_packets
                   : !strcmp(k, "nic_rx_all_pkg") || !strcmp(k, "roce_rx_all_pkt") ? s->rx_packets
                   : stat_of(s, k);
        printf("%s_num:%llu\n", k, (unsigned long long)v);
    }
}

static void print_optical(const struct linkwatch_sim_nic *s)
{
    printf("optical info:\n"
           "present              : present\n"
           "temperature          : 45 C\n"
           "vendor name          : LINKWATCH-SIM\n"
           "xsfp identifier      : QSFP-DD\n"
           "Vcc                  : 3301.20 mV\n");
    for (int lane = 0; lane < 4; lane++) {
        printf("Tx Power%d            : %.4f mW\n", lane, s->up ? 1.2034 : 0.0);
        printf("Rx Power%d            : %.4f mW\n", lane, s->rx_power_mw);
    }
    printf("TxPower High Thres   : 3.5481 mW\nTxPower Low Thres    : 0.2818 mW\n"
           "RxPower High Thres   : 3.5481 mW\nRxPower Low Thres    : 0.1445 mW\n");
    for (int lane = 0; lane < 4; lane++)
        printf("Tx Bias%d             : %.4f mA\n", lane, s->up ? 7.9360 : 0.0);
    for (int lane = 0; lane < 4; lane++)
        printf("Host SNR Lane%d       : not supported\n", lane);
    for (int lane = 0; lane < 4; lane++)
        printf("Media SNR Lane%d      : %.4f dB\n", lane, s->up ? 23.1211 : 0.0);
}

int main(int argc, char **argv)
{
    if (argc != 5 || strcmp(argv[1], "-i") != 0 || strcmp(argv[4], "-g") != 0)
        return usage();
    char *end;
    long dev = strtol(argv[2], &end, 10);
    const char *option = argv[3];
    bool known = false;
    for (int i = 0; OPTIONS[i]; i++)
        known |= strcmp(OPTIONS[i], option) == 0;
    if (*end || end == argv[2] || dev < 0 || !known)
        return usage();
    if (!take_tool_lock()) {
        printf("hccn_tool is busy, please try again\n");
        return 1;
    }
    setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "0", 1);
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    uint32_t n = 0;
    if (aclInit(NULL) != 0 || aclrtGetDeviceCount(&n) != 0) {
        const char *m = aclGetRecentErrMsg();
        fprintf(stderr, "hccn_tool: %s\n", m ? m : "cannot read the simulator profile");
        return 1;
    }
    if (dev >= (long)n) {
        printf("device id %ld is invalid\n", dev);
        aclFinalize();
        return 1;
    }
    char call[64];
    snprintf(call, sizeof call, "hccn_tool:%s", option);
    int code = linkwatch_sim_tool_call(call);
    if (code != 0) {
        fprintf(stderr, "hccn_tool: %s failed, ret = %d\n", option, code);
        aclFinalize();
        return 1;
    }
    struct linkwatch_sim_nic s;
    if (linkwatch_sim_nic((int32_t)dev, &s) != 0) {
        fprintf(stderr, "hccn_tool: cannot read device %ld's port\n", dev);
        aclFinalize();
        return 1;
    }
    if (!strcmp(option, "-link")) {
        printf("link status: %s\n", s.up ? "UP" : "DOWN");
    } else if (!strcmp(option, "-speed")) {
        if (s.up)
            printf("Speed: %u Mb/s\n", s.speed_mbps);
        else
            printf("Speed: Unknown!\n");
    } else if (!strcmp(option, "-link_stat")) {
        char when[64];
        time_t now = time(NULL);
        strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", localtime(&now));
        printf("[device %ld]current time        : %s\n", dev, when);
        printf("[device %ld]link up count       : %llu\n", dev, (unsigned long long)s.link_ups);
        printf("[device %ld]link change records :\n", dev);
    } else if (!strcmp(option, "-stat")) {
        print_stat(&s);
    } else if (!strcmp(option, "-optical")) {
        print_optical(&s);
    } else if (!strcmp(option, "-lldp")) {
        if (s.up)
            printf("LLDP Information\nChassis ID TLV\n\tMAC: 00:e0:fc:00:00:01\nPort ID TLV\n"
                   "\tIfname: 400GE1/0/%ld\nSystem Name TLV\n\tsim-leaf-01\n", dev + 1);
    } else if (!strcmp(option, "-net_health")) {
        const char *h = linkwatch_sim_nic_health_name(s.health);
        printf("net health status: %s\n", h ? h : "Unknown");
    } else {
        printf("ipaddr:192.168.100.%ld\nnetmask:255.255.255.0\n", 10 + dev);
    }
    aclFinalize();
    return 0;
}
