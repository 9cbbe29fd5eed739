//===- ParameterData.cpp - weight values for `dispatchlab run` ------------===//

#include "core/runtime/ParameterData.h"

#include "core/onnx/OnnxAttributes.h"
#include "core/onnx/OnnxModelFile.h"
#include "core/runtime/ModelRunner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"

namespace dispatchlab {

using onnx_import::HostTensor;

struct ParameterData::Model {
  std::string path;
  onnx::ModelProto proto;
  /// Initializers and the tensors of `Constant` nodes (which the importer
  /// turns into parameters named by the node's output), by name.
  llvm::StringMap<const onnx::TensorProto *> initializers;
  /// The parameter function's results, in order.
  std::vector<HostArray> derived;
};

namespace {
/// Initializer `name` of `model` as an array of `type` and `shape`.
llvm::Expected<HostArray> readInitializer(const ParameterData::Model &model,
                                          llvm::StringRef name,
                                          ElementType type,
                                          const std::vector<int64_t> &shape) {
  const onnx::TensorProto *tensor = model.initializers.lookup(name);
  if (!tensor)
    return llvm::createStringError("no initializer or Constant node '" + name +
                                   "' in the model");
  if (!onnx_import::hasInlineData(*tensor))
    return llvm::createStringError("initializer '" + name +
                                   "' carries no data (stripped weights)");
  llvm::Expected<HostTensor> host = onnx_import::decodeTensor(*tensor);
  if (!host)
    return host.takeError();
  HostArray array(type, shape);
  if (host->numElements() != array.numElements())
    return llvm::createStringError(
        "initializer '" + name + "' has " + llvm::Twine(host->numElements()) +
        " elements, the argument " + llvm::Twine(array.numElements()));
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    array.setDouble(i, host->getDouble(i));
  return array;
}

/// The parameter function of the model at `path` alone in a module, as the
/// one public function codegen compiles; null when the model derives no
/// weight.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
importParameterFunction(llvm::StringRef path, mlir::MLIRContext &context,
                        const OnnxImportOptions &import) {
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      importOnnxModel(path, context, import);
  if (mlir::failed(module))
    return mlir::failure();
  mlir::func::FuncOp function = findParameterFunction(**module);
  if (!function)
    return mlir::OwningOpRef<mlir::ModuleOp>();
  mlir::OwningOpRef<mlir::ModuleOp> alone =
      mlir::ModuleOp::create(function.getLoc());
  function->remove();
  alone->push_back(function);
  function.setPublic();
  return alone;
}
} // namespace

ParameterData::ParameterData(std::unique_ptr<Model> model)
    : model(std::move(model)) {}
ParameterData::ParameterData(ParameterData &&) = default;
ParameterData &ParameterData::operator=(ParameterData &&) = default;
ParameterData::~ParameterData() = default;

llvm::Expected<ParameterData> ParameterData::open(llvm::StringRef path) {
  llvm::Expected<onnx::ModelProto> proto = onnx_import::readOnnxModel(path);
  if (!proto)
    return proto.takeError();
  auto model = std::make_unique<Model>();
  model->path = path.str();
  model->proto = std::move(*proto);
  for (const onnx::TensorProto &tensor : model->proto.graph().initializer())
    model->initializers[tensor.name()] = &tensor;
  for (const onnx::NodeProto &node : model->proto.graph().node()) {
    bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (!onnxDomain || node.op_type() != "Constant" || node.output_size() != 1)
      continue;
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "value" && attribute.has_t())
        model->initializers[node.output(0)] = &attribute.t();
  }
  return ParameterData(std::move(model));
}

std::optional<std::string> ParameterData::findStrippedInitializer() const {
  for (const onnx::TensorProto &tensor : model->proto.graph().initializer())
    if (!onnx_import::hasInlineData(tensor))
      return tensor.name();
  return std::nullopt;
}

llvm::Error ParameterData::deriveWeights(const OnnxImportOptions &import,
                                         const CodegenOptions &cache) {
  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostic;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
        diagnostic.empty())
      diagnostic = d.str();
    return mlir::success();
  });
  auto diagnosed = [&] {
    return llvm::createStringError("deriving the weights failed: " +
                                   diagnostic);
  };
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      importParameterFunction(model->path, context, import);
  if (mlir::failed(module))
    return diagnosed();
  if (!*module)
    return llvm::Error::success();
  CodegenOptions codegen;
  codegen.mode = CodegenMode::Loops;
  codegen.objectCacheDirectory = cache.objectCacheDirectory;
  codegen.objectCacheMaxBytes = cache.objectCacheMaxBytes;
  mlir::FailureOr<CompiledModel> compiled = compileForHost(**module, codegen);
  if (mlir::failed(compiled))
    return diagnosed();
  std::vector<HostArray> initializers;
  for (const TensorSignature &input : compiled->inputs) {
    llvm::Expected<HostArray> value =
        readInitializer(*model, input.parameter, input.type, input.shape);
    if (!value)
      return value.takeError();
    initializers.push_back(std::move(*value));
  }
  return invokeModel(*compiled, initializers, model->derived);
}

llvm::Expected<HostArray>
ParameterData::get(const TensorSignature &weight) const {
  if (!weight.parameterResult)
    return readInitializer(*model, weight.parameter, weight.type, weight.shape);
  unsigned index = *weight.parameterResult;
  if (index >= model->derived.size())
    return llvm::createStringError("the parameter function has no result " +
                                   llvm::Twine(index));
  const HostArray &value = model->derived[index];
  if (value.type != weight.type || value.shape != weight.shape)
    return llvm::createStringError(
        "result " + llvm::Twine(index) + " of the parameter function is " +
        describe(value.type, value.shape) + ", the argument " +
        describe(weight.type, weight.shape));
  return value;
}

} // namespace dispatchlab
