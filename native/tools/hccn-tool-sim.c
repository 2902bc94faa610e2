/*
 * hccn-tool-sim.c - stand-in for `hccn_tool` on the simulator, so the agent's
 * hccn_tool reader and parsers run against the same profile, control file and
 * counters the sim uses.  It answers `hccn_tool -i DEVICE -OPTION -g` for the
 * options the agent reads (-link, -speed, -link_stat, -stat, -optical, -lldp,
 * -net_health, -ip) in the shapes of a current driver; the control file's
 * `nic DEVICE ...` lines set what it reports, and `fail|hang|crash
 * hccn_tool:OPTION` break one option.  Like the real tool it serves one call
 * at a time: a second call while one runs answers "hccn_tool is busy".
 *
 * `hccn_tool -i DEVICE -ping -g address IP` sends real ICMP echoes, three by
 * default (`pkt N` for more), one second's wait each, from the device's port
 * address: the simulated port lives in the host's network namespace, so loss
 * injected there (nft, a veth down) is what it reports.  The port addresses
 * come from the file LINKWATCH_SIM_HCCN_CONF names, in /etc/hccn.conf's form
 * (`address_DEVICE=IP`), which `-ip` prints too; without it `-ip` prints
 * 192.168.100.(10 + DEVICE) and the echoes leave from the route's address.
 */
#define _GNU_SOURCE  /* setenv, flock */
#include "linkwatch_sim.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *const OPTIONS[] = {
    "-link", "-speed", "-link_stat", "-stat", "-optical", "-lldp", "-net_health", "-ip", "-ping", NULL
};

#define PING_DEFAULT_COUNT 3
#define PING_MAX_COUNT 1000
#define PING_WAIT_MS 1000

static int usage(void)
{
    fprintf(stderr, "usage: hccn_tool -i DEVICE -link|-speed|-link_stat|-stat|-optical|-lldp|-net_health|-ip -g\n"
                    "       hccn_tool -i DEVICE -ping -g address IP [pkt COUNT]\n"
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

/* DEVICE's port address from LINKWATCH_SIM_HCCN_CONF (`address_DEVICE=IP`); false when unset. */
static bool configured_address(long dev, char *out, size_t size)
{
    const char *path = getenv("LINKWATCH_SIM_HCCN_CONF");
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    if (!f)
        return false;
    char line[256], key[64];
    snprintf(key, sizeof key, "address_%ld=", dev);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key)) == 0) {
            snprintf(out, size, "%s", line + strlen(key));
            out[strcspn(out, " \t\r\n")] = 0;
            found = *out != 0;
        }
    }
    fclose(f);
    return found;
}

static uint16_t icmp_checksum(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t sum = 0;
    for (size_t i = 0; i + 1 < len; i += 2)
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    if (len & 1)
        sum += (uint32_t)p[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return htons((uint16_t)~sum);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * Waits for the echo reply numbered `seq` until `deadline` (ms); true when it came.  A raw socket
 * sees every ICMP packet of the host, so replies to other pings are passed over.
 */
static bool await_reply(int fd, bool raw, uint16_t id, uint16_t seq, struct in_addr from, double deadline)
{
    for (;;) {
        double left = deadline - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)left + 1) <= 0)
            continue;
        uint8_t buf[1500];
        struct sockaddr_in src;
        socklen_t sl = sizeof src;
        ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&src, &sl);
        if (n <= 0 || src.sin_addr.s_addr != from.s_addr)
            continue;
        size_t off = 0;
        if (raw) {
            if ((size_t)n < sizeof(struct ip))
                continue;
            off = (size_t)((struct ip *)buf)->ip_hl * 4;
        }
        if ((size_t)n < off + sizeof(struct icmphdr))
            continue;
        struct icmphdr *h = (struct icmphdr *)(buf + off);
        /* A datagram socket's id is the kernel's: only the sequence can be matched there. */
        if (h->type == ICMP_ECHOREPLY && ntohs(h->un.echo.sequence) == seq && (!raw || ntohs(h->un.echo.id) == id))
            return true;
    }
}

/* `-ping`: COUNT echoes from DEVICE's port to TARGET, printed as the driver prints them. */
static int ping(long dev, const struct linkwatch_sim_nic *port, const char *target, long count)
{
    struct in_addr to;
    if (inet_pton(AF_INET, target, &to) != 1) {
        printf("address %s is invalid\n", target);
        return 1;
    }
    char source[64];
    bool bound = configured_address(dev, source, sizeof source);
    bool raw = true;
    int fd = -1;
    if (port->up) {
        fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
        if (fd < 0) {   /* without CAP_NET_RAW: an unprivileged ICMP socket, where the host allows it */
            raw = false;
            fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
        }
        if (fd < 0) {
            fprintf(stderr, "hccn_tool: cannot open an ICMP socket: %s\n", strerror(errno));
            return 1;
        }
        if (bound) {
            struct sockaddr_in me = {.sin_family = AF_INET};
            if (inet_pton(AF_INET, source, &me.sin_addr) != 1 || bind(fd, (struct sockaddr *)&me, sizeof me) != 0) {
                fprintf(stderr, "hccn_tool: device %ld's address %s is not on this host: %s\n", dev, source,
                        strerror(errno));
                close(fd);
                return 1;
            }
        }
    }
    printf("device %ld PING %s\n", dev, target);
    fflush(stdout);
    uint16_t id = (uint16_t)(getpid() ^ (dev << 8));
    long received = 0;
    for (long seq = 0; seq < count; seq++) {
        double start = now_ms();
        bool answered = false;
        if (fd >= 0) {
            uint8_t packet[sizeof(struct icmphdr) + 56] = {0};
            struct icmphdr *h = (struct icmphdr *)packet;
            h->type = ICMP_ECHO;
            h->un.echo.id = htons(id);
            h->un.echo.sequence = htons((uint16_t)seq);
            for (size_t i = sizeof *h; i < sizeof packet; i++)
                packet[i] = (uint8_t)i;
            h->checksum = icmp_checksum(packet, sizeof packet);
            struct sockaddr_in dst = {.sin_family = AF_INET, .sin_addr = to};
            if (sendto(fd, packet, sizeof packet, 0, (struct sockaddr *)&dst, sizeof dst) == (ssize_t)sizeof packet)
                answered = await_reply(fd, raw, id, (uint16_t)seq, to, start + PING_WAIT_MS);
        }
        if (answered) {
            received++;
            printf("recv seq=%ld,time=%.6fms\n", seq, now_ms() - start);
        } else {
            /* a send refused waits as a lost echo does; a port that is down sends nothing */
            double left = start + PING_WAIT_MS - now_ms();
            if (fd >= 0 && left > 0)
                usleep((useconds_t)(left * 1000));
            printf("recv time out seq=%ld\n", seq);
        }
        fflush(stdout);
    }
    if (fd >= 0)
        close(fd);
    printf("%ld packets transmitted, %ld received, %.2f%% packet loss\n", count, received,
           100.0 * (double)(count - received) / (double)count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[1], "-i") != 0 || strcmp(argv[4], "-g") != 0)
        return usage();
    char *end;
    long dev = strtol(argv[2], &end, 10);
    const char *option = argv[3];
    /* -ping -g address IP [pkt COUNT]; every other option takes nothing after -g */
    const char *target = NULL;
    long count = PING_DEFAULT_COUNT;
    if (!strcmp(option, "-ping")) {
        if ((argc != 7 && argc != 9) || strcmp(argv[5], "address") != 0)
            return usage();
        target = argv[6];
        if (argc == 9) {
            char *e;
            count = strtol(argv[8], &e, 10);
            if (strcmp(argv[7], "pkt") != 0 || *e || count < 1 || count > PING_MAX_COUNT)
                return usage();
        }
    } else if (argc != 5) {
        return usage();
    }
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
    } else if (!strcmp(option, "-ping")) {
        int rc = ping(dev, &s, target, count);
        aclFinalize();
        return rc;
    } else {
        char address[64];
        if (configured_address(dev, address, sizeof address))
            printf("ipaddr:%s\nnetmask:255.255.255.0\n", address);
        else
            printf("ipaddr:192.168.100.%ld\nnetmask:255.255.255.0\n", 10 + dev);
    }
    aclFinalize();
    return 0;
}
