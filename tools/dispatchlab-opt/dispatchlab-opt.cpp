//===- dispatchlab-opt.cpp - the pass driver for lit tests ----------------===//
//
// mlir-opt with dispatchlab's dialect and passes registered, so every IR
// transformation can be tested in isolation.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"
#include "core/onnx/Passes.h"
#include "core/pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  dispatchlab::registerDialects(registry);
  dispatchlab::registerPasses();
  dispatchlab::registerCodegenPasses();
  dispatchlab::registerOnnxImportPasses();
  // Upstream dialects and passes too, so codegen's lowering steps (forall
  // to async, vector lowering) can be tested on dispatchlab's output.
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dispatchlab pass driver\n", registry));
}
