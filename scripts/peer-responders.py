#!/usr/bin/env python3
"""Answers linkwatch's peer echoes for many members at once, for scripts/peer-bench.sh.

Reads one IPv4 address a line on stdin and, on each, binds UDP and TCP on PORT: a request
datagram ("LWE1", type 1; docs/peers.md) is sent back as its reply (type 2, interface "lo"), a
TCP connect is accepted and closed. It stands in for the agents a single machine cannot run.
"""
import selectors
import socket
import sys

HEADER = 36


def main():
    port = int(sys.argv[1])
    sel = selectors.DefaultSelector()
    for line in sys.stdin:
        address = line.strip()
        if not address:
            continue
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((address, port))
        u.setblocking(False)
        sel.register(u, selectors.EVENT_READ, "udp")
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        t.bind((address, port))
        t.listen(16)
        t.setblocking(False)
        sel.register(t, selectors.EVENT_READ, "tcp")
    while True:
        for key, _ in sel.select():
            s = key.fileobj
            if key.data == "tcp":
                try:
                    c, _ = s.accept()
                    c.close()
                except OSError:
                    pass
                continue
            try:
                data, sender = s.recvfrom(2048)
            except OSError:
                continue
            if len(data) < HEADER or data[:4] != b"LWE1" or data[4] != 1:
                continue
            reply = bytearray(data)
            reply[4] = 2
            reply[5] = 2
            reply[20:36] = b"lo" + bytes(14)
            s.sendto(bytes(reply), sender)


if __name__ == "__main__":
    main()
