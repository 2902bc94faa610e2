package io.linkwatch.runtime;

/**
 * The runtime calls behind {@link DeviceRuntime#registerPinned} and {@link
 * DeviceRuntime#allocatePinned}, as host-transfer results name them in their {@code allocation}.
 *
 * @param register the call that page-locks existing memory
 * @param allocate the call that allocates page-locked memory
 * @param registerNeedsKernelAbove510 whether the vendor documents registration of pageable memory
 *     as unsafe on kernels up to 5.10 (AscendCL: "causes an exception"); CUDA has no such rule
 */
public record PinnedMemoryCalls(
    String register, String allocate, boolean registerNeedsKernelAbove510) {
  public static final PinnedMemoryCalls ASCEND =
      new PinnedMemoryCalls("aclrtHostRegisterV2", "aclrtMallocHost", true);
  public static final PinnedMemoryCalls CUDA =
      new PinnedMemoryCalls("cuMemHostRegister_v2", "cuMemHostAlloc", false);
}
