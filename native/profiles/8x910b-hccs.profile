# 8 x Ascend 910B3 on one board: HCCS between every pair (npu-smi shows HCCS everywhere).
soc Ascend910B3
device 0 memory 64GiB phy 0
device 1 memory 64GiB phy 1
device 2 memory 64GiB phy 2
device 3 memory 64GiB phy 3
device 4 memory 64GiB phy 4
device 5 memory 64GiB phy 5
device 6 memory 64GiB phy 6
device 7 memory 64GiB phy 7
link 0 1 HCCS bandwidth 56GB/s latency 0.02ms
link 0 2 HCCS bandwidth 56GB/s latency 0.02ms
link 0 3 HCCS bandwidth 56GB/s latency 0.02ms
link 0 4 HCCS bandwidth 56GB/s latency 0.02ms
link 0 5 HCCS bandwidth 56GB/s latency 0.02ms
link 0 6 HCCS bandwidth 56GB/s latency 0.02ms
link 0 7 HCCS bandwidth 56GB/s latency 0.02ms
link 1 2 HCCS bandwidth 56GB/s latency 0.02ms
link 1 3 HCCS bandwidth 56GB/s latency 0.02ms
link 1 4 HCCS bandwidth 56GB/s latency 0.02ms
link 1 5 HCCS bandwidth 56GB/s latency 0.02ms
link 1 6 HCCS bandwidth 56GB/s latency 0.02ms
link 1 7 HCCS bandwidth 56GB/s latency 0.02ms
link 2 3 HCCS bandwidth 56GB/s latency 0.02ms
link 2 4 HCCS bandwidth 56GB/s latency 0.02ms
link 2 5 HCCS bandwidth 56GB/s latency 0.02ms
link 2 6 HCCS bandwidth 56GB/s latency 0.02ms
link 2 7 HCCS bandwidth 56GB/s latency 0.02ms
link 3 4 HCCS bandwidth 56GB/s latency 0.02ms
link 3 5 HCCS bandwidth 56GB/s latency 0.02ms
link 3 6 HCCS bandwidth 56GB/s latency 0.02ms
link 3 7 HCCS bandwidth 56GB/s latency 0.02ms
link 4 5 HCCS bandwidth 56GB/s latency 0.02ms
link 4 6 HCCS bandwidth 56GB/s latency 0.02ms
link 4 7 HCCS bandwidth 56GB/s latency 0.02ms
link 5 6 HCCS bandwidth 56GB/s latency 0.02ms
link 5 7 HCCS bandwidth 56GB/s latency 0.02ms
link 6 7 HCCS bandwidth 56GB/s latency 0.02ms
affinity 0 0-23
affinity 1 0-23
affinity 2 24-47
affinity 3 24-47
affinity 4 48-71
affinity 5 48-71
affinity 6 72-95
affinity 7 72-95
local bandwidth 1200GB/s latency 0.01ms
pinned h2d 25GB/s d2h 25GB/s latency 0.02ms
pageable default h2d 12GB/s d2h 14GB/s latency 0.05ms
allreduce latency 60us busbw 160GB/s
# ranks on different hosts (HcclCommInitRootInfo): assumption, one 200 Gb/s RoCE
# port per NPU (25 GB/s), 10 us
peer_link bandwidth 25GB/s latency 10us
hccl timeout 120s
timing model
noise 0.01
