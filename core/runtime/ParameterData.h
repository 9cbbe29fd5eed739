//===- ParameterData.h - weight values for `dispatchlab run` ----*- C++ -*-===//
//
// The ONNX importer turns weights into function arguments tagged with the
// initializer name (`dispatchlab.parameter`) or with a recipe over
// initializer names (`dispatchlab.parameter_expr`, grammar in
// core/onnx/OnnxImporter.h). This reads the initializers from the model file
// and evaluates recipes, so a model with kept weights runs with its real
// weights.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H
#define DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H

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

  /// The value of initializer `name`, or of `recipe` when non-empty, as an
  /// array of `type` and `shape`. Fails when an initializer is missing or
  /// stripped, or the recipe is malformed or yields another shape.
  llvm::Expected<HostArray> evaluate(llvm::StringRef name,
                                     llvm::StringRef recipe, ElementType type,
                                     const std::vector<int64_t> &shape) const;

  /// The name of an initializer without data (weights stripped from the
  /// file), if any: lets `run` say so before spending time on compiling.
  std::optional<std::string> findStrippedInitializer() const;

  /// The parsed model with its initializers by name (opaque here).
  struct Model;

private:
  explicit ParameterData(std::unique_ptr<Model> model);
  std::unique_ptr<Model> model;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_RUNTIME_PARAMETERDATA_H
