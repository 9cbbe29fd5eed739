//===- WeightArguments.h - the tags on a model's weight arguments -*- C++ -*-//
//
// The ONNX importer tags each weight argument of `@main` with what it holds,
// and codegen and the runtime read the tags back: defined here, below both,
// so that the importer, codegen and the runtime spell them one way.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_SUPPORT_WEIGHTARGUMENTS_H
#define DISPATCHLAB_CORE_SUPPORT_WEIGHTARGUMENTS_H

#include "llvm/ADT/StringRef.h"

namespace dispatchlab {

/// The initializer an argument holds (on `@main` and on the parameter
/// function's arguments).
inline constexpr llvm::StringLiteral kParameterAttr = "dispatchlab.parameter";
/// A weight derived from initializers: the result of the parameter function
/// that computes it.
inline constexpr llvm::StringLiteral kParameterResultAttr =
    "dispatchlab.parameter_result";
/// On the parameter function: the function whose weights it derives.
inline constexpr llvm::StringLiteral kParametersOfAttr =
    "dispatchlab.parameters_of";

/// The host's initializer (codegen's ParameterInitializer.h, and
/// HoistIntoGlobals before dispatch creation): on it, the host it belongs to;
/// on each of its arguments, the host argument (a weight) bound to it; on a
/// host argument computed by it, the initializer result it binds to.
inline constexpr llvm::StringLiteral kInitializerOfAttr =
    "dispatchlab.initializer_of";
inline constexpr llvm::StringLiteral kHostArgumentAttr =
    "dispatchlab.host_argument";
inline constexpr llvm::StringLiteral kPackedAttr = "dispatchlab.packed";

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_WEIGHTARGUMENTS_H
