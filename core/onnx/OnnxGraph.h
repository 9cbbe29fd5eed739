//===- OnnxGraph.h - state of one ONNX graph being imported -----*- C++ -*-===//
//
// While a graph is imported, every ONNX value name maps to an OnnxValue: an IR
// value, data known at import time (shape computations), or a parameter
// (weights), materialized lazily so that weights used only through
// import-time folding never become function arguments. Work on weights alone
// is built in the parameter function beside `@main` (OnnxImporter.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_CORE_ONNX_ONNXGRAPH_H
#define DISPATCHLAB_CORE_ONNX_ONNXGRAPH_H

#include "core/onnx/OnnxAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace dispatchlab::onnx_import {

/// The MLIR element type of an ONNX data type; null when unsupported.
mlir::Type convertDataType(mlir::MLIRContext *context, int32_t dataType);
/// The ONNX data type of an MLIR element type (inverse of the above).
int32_t toDataType(mlir::Type type);

/// What one ONNX value name stands for.
struct OnnxValue {
  mlir::RankedTensorType type;
  /// The IR value, once created.
  mlir::Value value;
  /// The values, when known at import time.
  std::optional<HostTensor> host;
  /// The initializer name of a weight the file holds.
  std::string parameter;
  /// A weight computed from weights: its value in the parameter function.
  mlir::Value derived;

  bool isParameter() const { return !parameter.empty() || derived; }
  /// Whether import-time folding may consume this value: its data is known
  /// and it is not a weight (folding weights would inline them).
  bool isFoldable() const { return host && !isParameter(); }
};

class OnnxGraph {
public:
  OnnxGraph(mlir::func::FuncOp func, llvm::StringRef modelPath,
            const onnx::ModelProto &model);

  mlir::MLIRContext *getContext() const { return func.getContext(); }
  llvm::StringRef getModelPath() const { return modelPath; }
  /// The location diagnostics about the model are reported at.
  mlir::Location getFileLoc() const;
  mlir::func::FuncOp getFunc() const { return func; }
  /// Opset version imported for `domain` ("" and "ai.onnx" are the same).
  int64_t getOpsetVersion(llvm::StringRef domain) const;

  OnnxValue *lookup(llvm::StringRef name);
  void define(llvm::StringRef name, OnnxValue value);
  /// The IR value of `value`, creating its parameter argument or constant on
  /// first use.
  mlir::Value materialize(OnnxValue &value, mlir::Location loc);

  /// The function computing derived weights, created on first use.
  mlir::func::FuncOp getParameterFunction();
  /// Weight `value` inside the parameter function: an argument of it for an
  /// initializer (one per name), the derived value otherwise.
  mlir::Value getParameterValue(const OnnxValue &value);
  /// Returns from the parameter function each derived weight `@main` reads,
  /// binding the argument to its result; the function goes when `@main`
  /// reads none. Call once, after the last node.
  void finishParameterFunction();

  /// Nodes reading value `name`, in graph order.
  llvm::ArrayRef<const onnx::NodeProto *> getUsers(llvm::StringRef name) const;
  bool isGraphOutput(llvm::StringRef name) const;
  /// Marks a node lowered as part of another (BN folded into its conv).
  void markAbsorbed(const onnx::NodeProto *node) { absorbed.insert(node); }
  bool isAbsorbed(const onnx::NodeProto *node) const {
    return absorbed.contains(node);
  }

private:
  mlir::Value getParameterArgument(const OnnxValue &value, mlir::Location loc);
  /// Derived weights computed the same way are one `@main` argument, as
  /// initializers are: merges the arguments whose values CSE made equal.
  llvm::SmallVector<mlir::Value> mergeDerivedArguments();

  mutable mlir::func::FuncOp func;
  std::string modelPath;
  llvm::StringMap<int64_t> opsets;
  llvm::StringMap<OnnxValue> values;
  llvm::StringMap<llvm::SmallVector<const onnx::NodeProto *, 2>> users;
  llvm::StringSet<> outputs;
  llvm::DenseSet<const onnx::NodeProto *> absorbed;
  /// `@main` argument index by initializer name, so each weight is one
  /// argument.
  llvm::StringMap<unsigned> parameterArguments;
  /// `@main`'s argument of each derived weight it reads, in argument order.
  llvm::MapVector<mlir::Value, mlir::BlockArgument> derivedArguments;
  mlir::func::FuncOp parameterFunc;
  /// Parameter function argument index by initializer name.
  llvm::StringMap<unsigned> parameterInputs;
};

/// One node being lowered: its inputs, attributes and outputs, with a builder
/// whose ops are located at the node's name.
class OnnxNode {
public:
  OnnxNode(OnnxGraph &graph, const onnx::NodeProto &proto);

  OnnxGraph &graph;
  const onnx::NodeProto &proto;
  mlir::OpBuilder builder;
  /// NameLoc of the node's name (or first output's name when unnamed).
  mlir::Location loc;

  llvm::StringRef getOpType() const { return proto.op_type(); }
  std::string getName() const;
  int64_t getOpset() const { return graph.getOpsetVersion(proto.domain()); }

  unsigned getNumInputs() const { return proto.input_size(); }
  /// Whether optional input `i` is given (present and non-empty).
  bool hasInput(unsigned i) const;
  OnnxValue &getInput(unsigned i);
  mlir::Value getInputValue(unsigned i);
  mlir::RankedTensorType getInputType(unsigned i) { return getInput(i).type; }
  llvm::ArrayRef<int64_t> getInputShape(unsigned i) {
    return getInput(i).type.getShape();
  }
  /// The import-time data of input `i`; fails with an error naming `what`
  /// when it is computed at run time.
  mlir::FailureOr<HostTensor> getConstant(unsigned i, llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getConstantInts(unsigned i, llvm::StringRef what);
  /// Whether every given input can be folded at import time.
  bool allInputsFoldable();

  unsigned getNumOutputs() const { return proto.output_size(); }
  bool hasOutput(unsigned i) const;
  void setOutput(unsigned i, mlir::Value value);
  void setOutput(unsigned i, OnnxValue value);
  void setHostOutput(unsigned i, HostTensor tensor);

  /// An error naming the node; one line.
  mlir::InFlightDiagnostic emitError();
  mlir::LogicalResult fail(const llvm::Twine &message);

  int64_t getInt(llvm::StringRef name, int64_t defaultValue) const {
    return getIntAttribute(proto, name, defaultValue);
  }
  float getFloat(llvm::StringRef name, float defaultValue) const {
    return getFloatAttribute(proto, name, defaultValue);
  }
  std::string getString(llvm::StringRef name,
                        llvm::StringRef defaultValue = "") const {
    return getStringAttribute(proto, name, defaultValue);
  }
  std::optional<llvm::SmallVector<int64_t>>
  getInts(llvm::StringRef name) const {
    return getIntsAttribute(proto, name);
  }
  /// `axis` in [-rank, rank) made non-negative; fails naming the node.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);
};

} // namespace dispatchlab::onnx_import

#endif // DISPATCHLAB_CORE_ONNX_ONNXGRAPH_H
