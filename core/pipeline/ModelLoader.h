//===- ModelLoader.h - read a model into linalg-on-tensors IR ---*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_MODELLOADER_H
#define DISPATCHLAB_CORE_PIPELINE_MODELLOADER_H

#include "core/onnx/OnnxImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace dispatchlab {

/// Parses the MLIR file at `path` into a module of `func.func`s. IREE's
/// `util.func`/`util.return` spellings are rewritten to `func`, and its
/// pre-formed `flow.dispatch.region`s to `dispatch.region`. Each op whose
/// result was named in the source (`%mm = ...`) gets a NameLoc carrying that
/// name, so reports can say `%mm` rather than `linalg.matmul#3`. Diagnostics
/// (file:line:col) go through `sourceMgr`'s handler installed by the caller;
/// returns null on any error.
mlir::OwningOpRef<mlir::ModuleOp> loadMlirModel(llvm::StringRef path,
                                                mlir::MLIRContext &context,
                                                llvm::SourceMgr &sourceMgr);

/// Loads a model of any format dispatchlab reads: ONNX (`.onnx`,
/// `.onnxtxt`, imported with `importOptions`) or else MLIR as above, without
/// the importer's parameter function (OnnxImporter.h): the model function
/// takes the weights it derives as arguments.
mlir::OwningOpRef<mlir::ModuleOp>
loadModel(llvm::StringRef path, mlir::MLIRContext &context,
          llvm::SourceMgr &sourceMgr, const OnnxImportOptions &importOptions);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_MODELLOADER_H
