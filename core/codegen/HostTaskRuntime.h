//===- HostTaskRuntime.h - the async runtime dispatches call ----*- C++ -*-===//
//
// With --threads N each dispatch's tiles become async.execute tasks
// (async-parallel-for), lowered to calls of the MLIR async runtime's C API
// (mlir/ExecutionEngine/AsyncRuntime.h). MLIR's library behind that API
// hands every task to an llvm::ThreadPool whose idle workers sleep on a
// condition variable, and the caller sleeps in its await: each dispatch then
// pays for waking a thread and being woken, tens of microseconds on a VM, so
// mnist_cnn took 0.43 ms a call on two threads against 9 us on one.
//
// This is the same C API over a pool that stays hot between dispatches, as
// IREE's task executor does: workers spin for a while before they sleep,
// and a caller awaiting its tasks runs queued ones itself (IREE's caller
// donates its thread the same way). Semantics follow MLIR's reference
// runtime: tokens and values start with two references (the caller's and
// the emplacing task's), a group with one; an awaiter registered on a
// ready object runs at once, the others when it becomes ready, on the
// thread that makes it ready.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_CODEGEN_HOSTTASKRUNTIME_H
#define DISPATCHLAB_CORE_CODEGEN_HOSTTASKRUNTIME_H

#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace dispatchlab {

/// The runtime's functions by their C API names (mlirAsyncRuntime*), for
/// HostJit::create to resolve the compiled code's calls to.
std::vector<std::pair<llvm::StringRef, void *>> getHostTaskRuntimeSymbols();

/// Makes the process's pool hold at least `threads - 1` workers: with the
/// awaiting caller, `threads` run a dispatch's tasks.
void reserveHostTaskWorkers(unsigned threads);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_CODEGEN_HOSTTASKRUNTIME_H
