//===- FlushDenormals.h - denormals flushed while models run ---*- C++ -*-===//
//
// IREE's task workers run every dispatch with denormal floats flushed to zero
// (iree_task_worker_main pushes IREE_FPU_STATE_FLAG_FLUSH_DENORMALS_TO_ZERO):
// on x86 an arithmetic op on a denormal input or result takes a microcode
// assist of about a hundred cycles, so a dispatch whose activations stray
// below 1e-38 runs many times slower. The calling thread of a model and our
// task workers do the same. Flushing is FTZ and DAZ in MXCSR on x86 and
// FPCR.FZ on AArch64; elsewhere it is a no-op.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_FLUSHDENORMALS_H
#define DISPATCHLAB_CORE_SUPPORT_FLUSHDENORMALS_H

#include <cstdint>

namespace dispatchlab {

/// Flushes denormals to zero on the calling thread until destroyed, then
/// restores the previous state.
class ScopedFlushDenormals {
public:
  ScopedFlushDenormals();
  ~ScopedFlushDenormals();
  ScopedFlushDenormals(const ScopedFlushDenormals &) = delete;
  ScopedFlushDenormals &operator=(const ScopedFlushDenormals &) = delete;

private:
  uint64_t previous;
};

/// Flushes denormals to zero on the calling thread for the rest of its life
/// (a task worker's entry).
void flushDenormalsOnThisThread();

/// True when this host can flush denormals (x86-64 or AArch64).
bool canFlushDenormals();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_FLUSHDENORMALS_H
