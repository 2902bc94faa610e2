# One NVIDIA H200, no links: p2p and collective probes have nothing to measure.
# Figures as in hgx-h200.profile.
soc NVIDIA H200
device 0 memory 143771MiB phy 0 pci 0000:18:00.0
local bandwidth 2000GB/s latency 0.005ms
pinned h2d 55GB/s d2h 55GB/s latency 0.01ms
pageable default h2d 20GB/s d2h 20GB/s latency 0.02ms
allreduce latency 15us busbw 480GB/s
allgather latency 15us busbw 380GB/s
hccl timeout 120s
timing model
noise 0.01
