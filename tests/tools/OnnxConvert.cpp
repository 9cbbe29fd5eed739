//===- OnnxConvert.cpp - write binary ONNX files for tests ----------------===//
//
// dispatchlab-onnx-convert IN.onnxtxt -o OUT.onnx [--strip-weights]
//
// Lit tests keep their models in ONNX's text syntax; this writes them as the
// binary files real exporters produce, optionally with the data of every
// floating-point initializer removed (a "weights stripped" model), so tests
// can cover binary, stripped and truncated inputs.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxAttributes.h"
#include "core/onnx/OnnxModelFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

#include <fstream>

namespace cl = llvm::cl;
using namespace dispatchlab::onnx_import;

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("IN"),
                                      cl::Required);
static cl::opt<std::string> outputPath("o", cl::desc("Output .onnx file"),
                                       cl::value_desc("FILE"), cl::Required);
static cl::opt<bool>
    stripWeights("strip-weights",
                 cl::desc("Drop the data of floating-point initializers"));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "text ONNX to binary ONNX\n");
  llvm::Expected<onnx::ModelProto> model = readOnnxModel(inputPath);
  if (!model) {
    llvm::WithColor::error(llvm::errs(), inputPath)
        << llvm::toString(model.takeError()) << "\n";
    return 1;
  }
  if (stripWeights)
    for (onnx::TensorProto &tensor :
         *model->mutable_graph()->mutable_initializer())
      if (isFloatDataType(tensor.data_type())) {
        tensor.clear_raw_data();
        tensor.clear_float_data();
        tensor.clear_double_data();
        tensor.clear_int32_data();
      }
  std::ofstream output(outputPath, std::ios::binary);
  if (!output || !model->SerializeToOstream(&output)) {
    llvm::WithColor::error(llvm::errs(), outputPath) << "cannot write\n";
    return 1;
  }
  return 0;
}
