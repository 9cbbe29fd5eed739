//===- ImportCommand.cpp - `dispatchlab import` ---------------------------===//
//
// Writes an ONNX model as linalg-on-tensors MLIR, the form `compile` reads.
// Ops are printed with their ONNX names as SSA names, so the names survive a
// round trip through the .mlir file.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/ImportCommand.h"

#include "tools/dispatchlab/commands/CompareCommand.h"

#include "core/pipeline/Registration.h"
#include "tools/dispatchlab/commands/CompileCommand.h"
#include "tools/dispatchlab/commands/RunCommand.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getImportSubcommand() {
  static cl::SubCommand command(
      "import", "Import an ONNX model (.onnx, .onnxtxt) as linalg-on-tensors");
  return command;
}

namespace {
cl::opt<std::string> modelPath(cl::Positional, cl::desc("MODEL.onnx"),
                               cl::Required, cl::sub(getImportSubcommand()));

cl::opt<std::string> outputPath("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("FILE"), cl::init("-"),
                                cl::sub(getImportSubcommand()));

// Shared with compile, which accepts ONNX models too.
cl::opt<int64_t> batch("batch",
                       cl::desc("Value of each ONNX input's dynamic leading "
                                "dim not bound by --dim (default 1)"),
                       cl::init(1), cl::sub(getImportSubcommand()),
                       cl::sub(getCompileSubcommand()),
                       cl::sub(getRunSubcommand()),
                       cl::sub(getCompareSubcommand()));

cl::list<std::string>
    dims("dim", cl::desc("Bind the ONNX dynamic dim NAME to VALUE"),
         cl::value_desc("NAME=VALUE"), cl::sub(getImportSubcommand()),
         cl::sub(getCompileSubcommand()), cl::sub(getRunSubcommand()),
         cl::sub(getCompareSubcommand()));
} // namespace

FailureOr<OnnxImportOptions> getImportOptions(StringRef command) {
  OnnxImportOptions options;
  if (batch <= 0) {
    llvm::WithColor::error(llvm::errs(), command)
        << "--batch must be positive, got " << batch << "\n";
    return failure();
  }
  options.batch = batch;
  for (StringRef binding : dims) {
    auto [name, value] = binding.split('=');
    int64_t number;
    if (name.empty() || value.getAsInteger(10, number) || number <= 0) {
      llvm::WithColor::error(llvm::errs(), command)
          << "--dim expects NAME=VALUE with a positive VALUE, got '" << binding
          << "'\n";
      return failure();
    }
    options.dims[name.str()] = number;
  }
  return options;
}

int runImportCommand() {
  FailureOr<OnnxImportOptions> options = getImportOptions("dispatchlab import");
  if (failed(options))
    return 2;
  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  FailureOr<OwningOpRef<ModuleOp>> module =
      importOnnxModel(modelPath, context, *options);
  if (failed(module))
    return 1;

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath, &error);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "dispatchlab import") << error << "\n";
    return 1;
  }
  (**module)->print(output->os(), OpPrintingFlags().printNameLocAsPrefix());
  output->os() << "\n";
  output->keep();
  return 0;
}

} // namespace dispatchlab
