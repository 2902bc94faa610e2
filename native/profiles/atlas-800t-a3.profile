# Atlas 800T A3: two Ascend910_9382 dies joined by SIO (seeds 000, 001, 004).
# This file is also compiled into liblinkwatch-sim.so as the built-in default.
soc Ascend910_9382

device 0 memory 64GiB phy 2
device 1 memory 64GiB phy 3

# die-to-die: ~0.22 ms per copy, ~187 GB/s at 2 GiB (seed 000)
link 0 1 SIO bandwidth 190GB/s latency 0.21ms
# both directions at once: no SIO figure is published, so this is an assumption,
# the ratio of seed 002's A3 card matrix (HCCS): ~541 GB/s both ways, ~329 one way
bidirectional 0 1 1.64
# HBM clone, 1 GiB = 621 GB/s (seed 000)
local bandwidth 621GB/s latency 0.01ms
# pin_memory: NUMA-flat 58 / 41 GB/s (seed 004)
pinned h2d 58GB/s d2h 41GB/s latency 0.02ms

# non-pinned @1GB by (CPU node, node the pages really were on) (seed 004)
pageable cpu 0 mem 0 h2d 24.9GB/s d2h 25.4GB/s
pageable cpu 1 mem 1 h2d 6.6GB/s d2h 15.2GB/s
pageable cpu 2 mem 2 h2d 16.6GB/s d2h 18.4GB/s
pageable cpu 3 mem 3 h2d 18.2GB/s d2h 19.5GB/s
pageable cpu 4 mem 5 h2d 18.6GB/s d2h 22.5GB/s
pageable cpu 5 mem 7 h2d 10.1GB/s d2h 14.2GB/s
pageable cpu 6 mem 6 h2d 22.4GB/s d2h 23.4GB/s
pageable cpu 7 mem 7 h2d 18.6GB/s d2h 25.0GB/s
pageable default h2d 18GB/s d2h 20GB/s latency 0.05ms

# 2-die fp16 allreduce: 1 KB 272.7 us, 1 GB 105.1 GB/s busbw (seed 001)
allreduce latency 270us busbw 108GB/s
# 2-die allgather: no published figure; an assumption: the allreduce's latency and,
# with nothing to reduce, ~80 % of the SIO p2p rate
allgather latency 270us busbw 150GB/s
# ranks of one comm on different hosts (HcclCommInitRootInfo), host to host:
# assumption, one 200 Gb/s RoCE port per NPU (25 GB/s), 10 us; no measured figure
peer_link bandwidth 25GB/s latency 10us
hccl timeout 120s

timing model
noise 0.01
