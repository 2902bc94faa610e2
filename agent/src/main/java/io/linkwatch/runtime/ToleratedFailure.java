package io.linkwatch.runtime;

/**
 * A driver call that failed where the run could go on without it: a cleanup call ({@code
 * aclrtResetDevice}, {@code aclFinalize}, {@code HcclCommDestroy}) or an inventory call whose
 * answer has a stand-in ({@code aclrtGetSocName}: the name becomes {@code unknown}). The run's
 * figures stand, but a reset that fails is itself a driver symptom, so it is reported and counted.
 *
 * <p>E.g. {@code ToleratedFailure[call=aclrtResetDevice, detail=aclrtResetDevice(1) returned
 * 507899: injected fault]}.
 */
public record ToleratedFailure(String call, String detail) {}
