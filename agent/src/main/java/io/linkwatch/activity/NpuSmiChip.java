package io.linkwatch.activity;

/** A chip as npu-smi numbers it: NPU (card) id and chip id within it, e.g. NPU 0 chip 1. */
public record NpuSmiChip(int npu, int chip) {}
