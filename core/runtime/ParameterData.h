//===- ParameterData.h - weight values for `dispatchlab run` ----*- C++ -*-===//
//
// The ONNX importer turns weights into arguments of `@main`, each tagged
// with the initializer it holds (`dispatchlab.parameter`) or with the result
// of the parameter function that derives it from initializers
// (`dispatchlab.parameter_result`; core/onnx/OnnxImporter.h). This reads the
// initializers from the model file and runs the parameter function on them
// once, compiled for the host by the JIT that compiles the model, so a model
// with kept weights runs with its real weights.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H
#define DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H

#include "core/codegen/CodegenPipeline.h"
#include "core/onnx/OnnxImporter.h"
#include "core/support/Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace dispatchlab {

class ParameterData {
public:
  ~ParameterData();
  ParameterData(ParameterData &&);
  ParameterData &operator=(ParameterData &&);

  /// Reads the ONNX model at `path`; fails when it is unreadable.
  static llvm::Expected<ParameterData> open(llvm::StringRef path);

  /// The name of an initializer without data (weights stripped from the
  /// file), if any: lets `run` say so before spending time on compiling.
  std::optional<std::string> findStrippedInitializer() const;

  /// Imports the model with `import` and runs its parameter function, if it
  /// has one, on the initializers: the derived weights get() returns. The
  /// function is compiled to scalar loops (it runs once per load) with the
  /// object cache of `cache` (CodegenOptions::objectCacheDirectory). Fails
  /// with the first diagnostic, or naming a missing or stripped initializer.
  llvm::Error deriveWeights(const OnnxImportOptions &import,
                            const CodegenOptions &cache);

  /// The value of weight argument `weight`: its initializer, or the result of
  /// the parameter function it binds to (after deriveWeights). Fails when
  /// the initializer is missing or stripped, or the value has another shape
  /// or type than the argument.
  llvm::Expected<HostArray> get(const TensorSignature &weight) const;

  /// The parsed model with its initializers by name (opaque here).
  struct Model;

private:
  explicit ParameterData(std::unique_ptr<Model> model);
  std::unique_ptr<Model> model;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H
