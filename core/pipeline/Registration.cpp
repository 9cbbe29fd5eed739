//===- Registration.cpp - dialects and passes dispatchlab uses ------------===//

#include "core/pipeline/Registration.h"

#include "core/pipeline/DispatchCreationPipeline.h"
#include "core/pipeline/Passes.h"

#include "compat/CheckCompatDialect.h"
#include "compat/EncodingCompatDialect.h"
#include "compat/FlowCompatDialect.h"
#include "compat/HalCompatDialect.h"
#include "compat/LinalgExtCompatDialect.h"
#include "compat/TensorExtCompatDialect.h"
#include "compat/UtilCompatDialect.h"
#include "globalopt/Passes.h"
#include "heuristics/DispatchDialect.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Transforms/Passes.h"

namespace dispatchlab {

void registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::cf::ControlFlowDialect, mlir::complex::ComplexDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  check::CheckDialect, dispatch::DispatchDialect,
                  encoding::EncodingDialect, flow::FlowDialect, hal::HalDialect,
                  linalg_ext::LinalgExtDialect, tensor_ext::TensorExtDialect,
                  util::UtilDialect>();
  mlir::linalg::registerTilingInterfaceExternalModels(registry);
  mlir::tensor::registerTilingInterfaceExternalModels(registry);
  mlir::tensor::registerInferTypeOpInterfaceExternalModels(registry);
}

void registerPasses() {
  globalopt::registerGlobalOptPasses();
  registerHeuristicsPasses();
  registerPipelinePasses();
  registerDispatchCreationPipeline();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
}

} // namespace dispatchlab
