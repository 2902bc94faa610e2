# One device, no links: p2p and allreduce probes have nothing to measure.
soc Ascend910B3
device 0 memory 32GiB phy 0
local bandwidth 1200GB/s latency 0.01ms
pinned h2d 25GB/s d2h 25GB/s latency 0.02ms
pageable default h2d 12GB/s d2h 14GB/s latency 0.05ms
allreduce latency 20us busbw 100GB/s
hccl timeout 120s
timing model
noise 0.01
