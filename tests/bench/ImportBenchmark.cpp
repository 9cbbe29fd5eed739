//===- ImportBenchmark.cpp - ONNX import time of real models --------------===//
//
// Google Benchmark of `importOnnxModel` on zoo models (ResNet50, BERT-base):
// reading, onnx::checker, shape inference, lowering every node, and the
// TOSA-to-linalg passes, i.e. everything `dispatchlab import` does but
// printing. Each iteration gets a fresh MLIRContext, as the CLI does, so
// dialect loading counts too. Weights are stripped, so the figures are the
// import of the graph alone; the IR of the full model is the same.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxImporter.h"
#include "core/pipeline/Registration.h"

#include "mlir/IR/MLIRContext.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace mlir;

static void benchmarkImport(benchmark::State &state, const std::string &path) {
  DialectRegistry registry;
  dispatchlab::registerDialects(registry);
  int64_t ops = 0;
  for (auto _ : state) {
    MLIRContext context(registry);
    FailureOr<OwningOpRef<ModuleOp>> module =
        dispatchlab::importOnnxModel(path, context, {});
    if (failed(module)) {
      state.SkipWithError(("cannot import " + path).c_str());
      return;
    }
    ops = 0;
    (*module)->walk([&](Operation *) { ++ops; });
  }
  state.counters["ops"] = static_cast<double>(ops);
}

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  for (const char *model : {"resnet50", "bert_base_mlm"})
    benchmark::RegisterBenchmark(
        (std::string("Import/") + model).c_str(),
        [path = std::string(DISPATCHLAB_MODELS_DIR "/") + model + ".onnx"](
            benchmark::State &state) { benchmarkImport(state, path); })
        ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
