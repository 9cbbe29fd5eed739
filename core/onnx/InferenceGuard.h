//===- InferenceGuard.h - what libonnx shape inference trusts ---*- C++ -*-===//
//
// libonnx's shape inference trusts some ranks it should check: a Conv whose
// weight rank differs from its input's crashes inside it, and so does a node
// reading the output of a node whose inference already failed (e.g. Shape of
// a MatMul with a scalar operand). The ranks known before inference (graph
// inputs, initializers, declared value_info, carried through rank-preserving
// ops) are checked here first, and so are the window attributes its conv
// and pool inference divides by, so such models get one error line instead.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_INFERENCEGUARD_H
#define DISPATCHLAB_CORE_ONNX_INFERENCEGUARD_H

#include "onnx/onnx_pb.h"

#include "llvm/Support/Error.h"

namespace dispatchlab::onnx_import {

/// Fails with a one-line message naming the node whose operand ranks or
/// window attributes libonnx would not survive.
llvm::Error checkBeforeInference(const onnx::GraphProto &graph);

} // namespace dispatchlab::onnx_import

#endif // DISPATCHLAB_CORE_ONNX_INFERENCEGUARD_H
