//===- OnnxImporter.cpp - ONNX model to linalg-on-tensors -----------------===//

#include "core/onnx/OnnxImporter.h"

#include "core/onnx/InferenceGuard.h"
#include "core/onnx/OnnxModelFile.h"
#include "core/onnx/OnnxOps.h"
#include "core/onnx/Passes.h"

#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace dispatchlab::onnx_import;

namespace dispatchlab {

namespace {
/// Integer initializers up to this many elements are read on the host: they
/// are shape operands (Reshape targets, Slice bounds, axes), not weights.
constexpr int64_t kMaxHostIntegerElements = 1024;

class Importer {
public:
  Importer(StringRef path, MLIRContext &context,
           const OnnxImportOptions &options)
      : path(path.str()), context(context), options(options),
        fileLoc(FileLineColLoc::get(&context, path, 0, 0)) {}

  FailureOr<OwningOpRef<ModuleOp>> run();

private:
  LogicalResult error(const Twine &message) {
    emitError(fileLoc) << message;
    return failure();
  }
  LogicalResult bindInputDims(onnx::GraphProto &graph);
  LogicalResult checkModel();
  /// Each model input that is not an initializer becomes a `@main` argument.
  void defineInputs(func::FuncOp func, OnnxGraph &graph);
  LogicalResult defineInitializers(OnnxGraph &graph);
  LogicalResult lowerNodes(OnnxGraph &graph);
  /// Fails naming `output` when its declared shape contradicts `computed`.
  LogicalResult checkOutputShape(const onnx::ValueInfoProto &output,
                                 RankedTensorType computed);
  LogicalResult lowerToLinalg(ModuleOp module);

  std::string path;
  MLIRContext &context;
  const OnnxImportOptions &options;
  Location fileLoc;
  onnx::ModelProto model;
  /// Initializers without inline data (stripped or external weights).
  llvm::StringMap<onnx::TensorProto> strippedInitializers;
  llvm::StringSet<> initializerNames;
};
} // namespace

LogicalResult Importer::bindInputDims(onnx::GraphProto &graph) {
  std::set<std::string> usedNames;
  bool usedBatch = false;
  for (onnx::ValueInfoProto &input : *graph.mutable_input()) {
    if (initializerNames.contains(input.name()))
      continue;
    if (!input.type().has_tensor_type())
      return error("input '" + input.name() + "' is not a tensor");
    onnx::TypeProto_Tensor *tensorType =
        input.mutable_type()->mutable_tensor_type();
    if (!convertDataType(&context, tensorType->elem_type()))
      return error("input '" + input.name() + "' has unsupported element type");
    if (!tensorType->has_shape())
      return error("input '" + input.name() + "' has no shape");
    for (int i = 0, e = tensorType->shape().dim_size(); i < e; ++i) {
      onnx::TensorShapeProto_Dimension *dim =
          tensorType->mutable_shape()->mutable_dim(i);
      if (dim->has_dim_value() && dim->dim_value() > 0)
        continue;
      std::string name = dim->has_dim_param() ? dim->dim_param() : "";
      auto it = options.dims.find(name);
      if (!name.empty() && it != options.dims.end()) {
        usedNames.insert(name);
        dim->set_dim_value(it->second);
      } else if (i == 0) {
        dim->set_dim_value(options.batch);
        usedBatch = true;
      } else {
        return error("input '" + input.name() + "' has dynamic dim " +
                     Twine(i) +
                     (name.empty() ? Twine("") : " ('" + name + "')") +
                     "; bind it with --dim " + (name.empty() ? "NAME" : name) +
                     "=VALUE");
      }
    }
  }
  for (const auto &[name, value] : options.dims)
    if (!usedNames.count(name))
      emitWarning(fileLoc) << "--dim " << name
                           << " names no dynamic dim of any model input";
  // 1 is the default: only a batch the user asked for can be ignored.
  if (!usedBatch && options.batch != 1)
    emitWarning(fileLoc) << "--batch " << options.batch
                         << " is ignored: no input has a dynamic leading dim "
                            "(the model's batch is static)";
  return success();
}

/// onnx::checker and onnx::shape_inference report by throwing; their
/// messages become one-line errors here. Ranks inference would crash on are
/// refused before it runs.
static llvm::Error checkAndInferShapes(onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &exception) {
    // The ONNX library's own exception: the only kind dispatchlab catches.
    return llvm::createStringError("invalid ONNX model: " +
                                   toOneLine(exception.what()));
  }
  if (llvm::Error unsafe = checkBeforeInference(model.graph()))
    return unsafe;
  try {
    onnx::ShapeInferenceOptions inferenceOptions(/*check_type=*/true,
                                                 /*strict_mode=*/1,
                                                 /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), inferenceOptions);
  } catch (const std::exception &exception) {
    // The ONNX library's own exception, as above.
    return llvm::createStringError("ONNX shape inference failed: " +
                                   toOneLine(exception.what()));
  }
  return llvm::Error::success();
}

LogicalResult Importer::checkModel() {
  // The checker insists every initializer carries data; stripped weights are
  // declared as graph inputs instead, which checks and infers the same.
  onnx::GraphProto &graph = *model.mutable_graph();
  google::protobuf::RepeatedPtrField<onnx::TensorProto> withData;
  for (onnx::TensorProto &initializer : *graph.mutable_initializer()) {
    initializerNames.insert(initializer.name());
    if (hasInlineData(initializer)) {
      withData.Add()->Swap(&initializer);
      continue;
    }
    onnx::ValueInfoProto *input = graph.add_input();
    input->set_name(initializer.name());
    onnx::TypeProto_Tensor *tensorType =
        input->mutable_type()->mutable_tensor_type();
    tensorType->set_elem_type(initializer.data_type());
    for (int64_t dim : initializer.dims())
      tensorType->mutable_shape()->add_dim()->set_dim_value(dim);
    strippedInitializers[initializer.name()] = initializer;
  }
  graph.mutable_initializer()->Swap(&withData);

  if (failed(bindInputDims(graph)))
    return failure();
  if (llvm::Error checked = checkAndInferShapes(model))
    return error(llvm::toString(std::move(checked)));
  return success();
}

void Importer::defineInputs(func::FuncOp func, OnnxGraph &graph) {
  for (const onnx::ValueInfoProto &input : model.graph().input()) {
    if (initializerNames.contains(input.name()))
      continue;
    const onnx::TypeProto_Tensor &tensorType = input.type().tensor_type();
    SmallVector<int64_t> shape;
    for (const onnx::TensorShapeProto_Dimension &dim : tensorType.shape().dim())
      shape.push_back(dim.dim_value());
    OnnxValue value;
    value.type = RankedTensorType::get(
        shape, convertDataType(&context, tensorType.elem_type()));
    Location loc =
        NameLoc::get(StringAttr::get(&context, input.name()), fileLoc);
    (void)func.insertArgument(func.getNumArguments(), value.type, {}, loc);
    value.value = func.getArgument(func.getNumArguments() - 1);
    graph.define(input.name(), std::move(value));
  }
}

/// How an initializer enters the import: its data on the host when it is a
/// shape operand or a scalar, a parameter otherwise (see the header).
static OnnxValue initializerValue(const onnx::TensorProto &tensor,
                                  std::optional<HostTensor> data,
                                  RankedTensorType type) {
  OnnxValue value;
  value.type = type;
  bool isInteger = !isFloatDataType(tensor.data_type());
  bool small = type.getNumElements() <= kMaxHostIntegerElements;
  value.host = std::move(data);
  if (value.host && (type.getNumElements() <= 1 || (isInteger && small)))
    return value;
  value.parameter = tensor.name();
  return value;
}

LogicalResult Importer::defineInitializers(OnnxGraph &graph) {
  auto define = [&](const onnx::TensorProto &tensor, bool hasData) {
    Type elementType = convertDataType(&context, tensor.data_type());
    if (!elementType)
      return error("initializer '" + tensor.name() +
                   "' has unsupported data type");
    SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
    auto type = RankedTensorType::get(shape, elementType);
    std::optional<HostTensor> data;
    // Only small tensors are decoded: large ones are weights, used as
    // parameters without their values.
    if (hasData && type.getNumElements() <= kMaxHostIntegerElements) {
      llvm::Expected<HostTensor> decoded = decodeTensor(tensor);
      if (!decoded)
        return error(
            "initializer " +
            llvm::toString(decoded.takeError()).substr(strlen("tensor ")));
      data = std::move(*decoded);
    }
    graph.define(tensor.name(),
                 initializerValue(tensor, std::move(data), type));
    return success();
  };
  for (const onnx::TensorProto &tensor : model.graph().initializer())
    if (failed(define(tensor, /*hasData=*/true)))
      return failure();
  for (const auto &entry : strippedInitializers)
    if (failed(define(entry.second, /*hasData=*/false)))
      return failure();
  return success();
}

LogicalResult Importer::lowerNodes(OnnxGraph &graph) {
  const OnnxOpTable &table = getOnnxOpTable();
  for (const onnx::NodeProto &proto : model.graph().node()) {
    if (graph.isAbsorbed(&proto))
      continue;
    OnnxNode node(graph, proto);
    std::string key = proto.domain().empty() || proto.domain() == "ai.onnx"
                          ? proto.op_type()
                          : proto.domain() + "." + proto.op_type();
    auto it = table.find(key);
    if (it == table.end())
      return error("unsupported operator '" + key + "' (node '" +
                   node.getName() + "')");
    for (const std::string &input : proto.input())
      if (!input.empty() && !graph.lookup(input))
        return node.fail("input '" + input + "' is not defined");
    if (failed(it->second(node)))
      return failure();
    // Outputs nothing reads may stay undefined (e.g. a conv's output once
    // its BatchNormalization is folded in).
    for (const std::string &output : proto.output())
      if (!output.empty() && !graph.lookup(output) &&
          (graph.isGraphOutput(output) ||
           llvm::any_of(graph.getUsers(output),
                        [&](const onnx::NodeProto *user) {
                          return !graph.isAbsorbed(user);
                        })))
        return node.fail("output '" + output + "' is not supported");
  }
  return success();
}

/// A declared ONNX shape as `[N, 3, 4]`: named dims by name, unknown ones `?`.
static std::string formatDeclaredShape(const onnx::TensorShapeProto &shape) {
  std::string text = "[";
  for (const onnx::TensorShapeProto_Dimension &dim : shape.dim()) {
    if (text.size() > 1)
      text += ", ";
    text += dim.has_dim_value()   ? std::to_string(dim.dim_value())
            : dim.has_dim_param() ? dim.dim_param()
                                  : "?";
  }
  return text + "]";
}

LogicalResult Importer::checkOutputShape(const onnx::ValueInfoProto &output,
                                         RankedTensorType computed) {
  const onnx::TypeProto &type = output.type();
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return success();
  const onnx::TensorShapeProto &declared = type.tensor_type().shape();
  bool matches = declared.dim_size() == computed.getRank();
  for (int i = 0; matches && i < declared.dim_size(); ++i)
    matches = !declared.dim(i).has_dim_value() ||
              declared.dim(i).dim_value() == computed.getDimSize(i);
  if (matches)
    return success();
  return error("graph output '" + output.name() + "' is declared " +
               formatDeclaredShape(declared) + " but computed " +
               formatList(computed.getShape()));
}

LogicalResult Importer::lowerToLinalg(ModuleOp module) {
  PassManager pm(&context, ModuleOp::getOperationName());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaReduceTransposes());
  // No TOSA validation: the importer emits TOSA as an intermediate form, not
  // for a TOSA target profile.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), std::nullopt);
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createSinkLayoutTransposesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(module)))
    return error("lowering the imported TOSA to linalg failed");
  WalkResult leftover = module.walk([&](Operation *op) {
    if (isa<tosa::TosaDialect>(op->getDialect())) {
      op->emitError() << "'" << op->getName() << "' was not lowered to linalg";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(leftover.wasInterrupted());
}

FailureOr<OwningOpRef<ModuleOp>> Importer::run() {
  llvm::Expected<onnx::ModelProto> parsed = readOnnxModel(path);
  if (!parsed) {
    (void)error(llvm::toString(parsed.takeError()));
    return failure();
  }
  model = std::move(*parsed);
  if (failed(checkModel()))
    return failure();

  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      linalg::LinalgDialect, math::MathDialect,
                      tensor::TensorDialect, tosa::TosaDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType({}, {}));
  func.addEntryBlock();
  OnnxGraph graph(func, path, model);

  defineInputs(func, graph);
  if (failed(defineInitializers(graph)) || failed(lowerNodes(graph)))
    return failure();

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : model.graph().output()) {
    OnnxValue *value = graph.lookup(output.name());
    if (!value) {
      (void)error("graph output '" + output.name() + "' is never computed");
      return failure();
    }
    if (failed(checkOutputShape(output, value->type)))
      return failure();
    results.push_back(graph.materialize(*value, fileLoc));
  }
  builder.setInsertionPointToEnd(&func.getBody().front());
  func::ReturnOp::create(builder, fileLoc, results);
  graph.finishParameterFunction();
  func.setFunctionType(builder.getFunctionType(func.getArgumentTypes(),
                                               ValueRange(results).getTypes()));

  if (failed(verify(*module))) {
    (void)error("the imported IR is invalid (an importer bug)");
    return failure();
  }
  if (failed(lowerToLinalg(*module)))
    return failure();
  return module;
}

func::FuncOp findParameterFunction(ModuleOp module) {
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(kParametersOfAttr))
      return function;
  return nullptr;
}

FailureOr<OwningOpRef<ModuleOp>>
importOnnxModel(StringRef path, MLIRContext &context,
                const OnnxImportOptions &options) {
  return Importer(path, context, options).run();
}

} // namespace dispatchlab
