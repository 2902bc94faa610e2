# HGX H200 8-GPU baseboard: eight NVIDIA H200 SXM joined by NVSwitch, two CPU
# sockets with four GPUs each.  The built-in default of the CUDA face (cuInit,
# nvmlInit_v2, ncclCommInitAll), compiled into liblinkwatch-sim.so.
# Figures marked "assumption" are not measured on this machine.
soc NVIDIA H200

# 141 GB HBM3e per GPU; the driver reports 143771 MiB total.  The PCI addresses
# are those of a typical two-socket HGX host (GPUs 0-3 on socket 0, 4-7 on 1).
device 0 memory 143771MiB phy 0 pci 0000:18:00.0
device 1 memory 143771MiB phy 1 pci 0000:2a:00.0
device 2 memory 143771MiB phy 2 pci 0000:3a:00.0
device 3 memory 143771MiB phy 3 pci 0000:5d:00.0
device 4 memory 143771MiB phy 4 pci 0000:9a:00.0
device 5 memory 143771MiB phy 5 pci 0000:ab:00.0
device 6 memory 143771MiB phy 6 pci 0000:ba:00.0
device 7 memory 143771MiB phy 7 pci 0000:db:00.0

# NVLink 4 through NVSwitch between every pair.  Assumption: 450 GB/s per
# direction nominal (18 links x 25 GB/s), of which a copy engine's
# cuMemcpyPeerAsync reaches ~80 %; both directions at once ~1.9x one.  The PCIe
# path NVML reports for a pair: NODE on one socket, SYS across the two.
link 0 1 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 0 2 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 0 3 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 0 4 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 0 5 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 0 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 0 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 1 2 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 1 3 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 1 4 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 1 5 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 1 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 1 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 2 3 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 2 4 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 2 5 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 2 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 2 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 3 4 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 3 5 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 3 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 3 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie SYS
link 4 5 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 4 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 4 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 5 6 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 5 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
link 6 7 NVLINK bandwidth 370GB/s latency 0.01ms pcie NODE
# NVLink 4: 18 links per H200, every one into the baseboard's NVSwitches (NVML
# reports them one by one: state, remote NVSwitch, counters)
nvlinks 18 switch
bidirectional 0 1 1.9
bidirectional 0 2 1.9
bidirectional 0 3 1.9
bidirectional 0 4 1.9
bidirectional 0 5 1.9
bidirectional 0 6 1.9
bidirectional 0 7 1.9
bidirectional 1 2 1.9
bidirectional 1 3 1.9
bidirectional 1 4 1.9
bidirectional 1 5 1.9
bidirectional 1 6 1.9
bidirectional 1 7 1.9
bidirectional 2 3 1.9
bidirectional 2 4 1.9
bidirectional 2 5 1.9
bidirectional 2 6 1.9
bidirectional 2 7 1.9
bidirectional 3 4 1.9
bidirectional 3 5 1.9
bidirectional 3 6 1.9
bidirectional 3 7 1.9
bidirectional 4 5 1.9
bidirectional 4 6 1.9
bidirectional 4 7 1.9
bidirectional 5 6 1.9
bidirectional 5 7 1.9
bidirectional 6 7 1.9

# CPU affinity: the four GPUs of a socket are near its 56 cores (2 x 56-core CPUs).
affinity 0 0-55
affinity 1 0-55
affinity 2 0-55
affinity 3 0-55
affinity 4 56-111
affinity 5 56-111
affinity 6 56-111
affinity 7 56-111

# device-local copy (cuMemcpyDtoDAsync on one GPU): a copy reads and writes each byte, so
# the 4.8 TB/s HBM3e peak allows at most 2.4 TB/s copied; assumption: ~2 TB/s reached
local bandwidth 2000GB/s latency 0.005ms
# pinned host memory over PCIe Gen5 x16 (64 GB/s nominal per direction), ~55 GB/s reached
pinned h2d 55GB/s d2h 55GB/s latency 0.01ms
# pageable: staged through the driver's pinned buffers; assumption, ~20 GB/s
pageable default h2d 20GB/s d2h 20GB/s latency 0.02ms

# 8-GPU NCCL over NVSwitch (nccl-tests bus bandwidth at large sizes): assumption,
# allreduce ~480 GB/s (NVLS), allgather ~380 GB/s; ~15 us small-message latency
allreduce latency 15us busbw 480GB/s
allgather latency 15us busbw 380GB/s
# ranks on different hosts (ncclCommInitRank): assumption, one 400 Gb/s NIC per
# GPU (ConnectX-7, 50 GB/s), 5 us
peer_link bandwidth 50GB/s latency 5us
hccl timeout 120s

timing model
noise 0.01
