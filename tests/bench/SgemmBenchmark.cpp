//===- SgemmBenchmark.cpp - OpenBLAS sgemm on the matmul shapes -----------===//
//
// The reference side of scripts/bench_vs_reference.sh's matmul table:
// OpenBLAS `cblas_sgemm` (row-major, beta 0, i.e. fill + matmul) on the
// shapes of BERT's matmul dispatches, one call per batch element as a batched
// matmul is run by eager frameworks. dispatchlab's side is `dispatchlab run`
// on the same shapes; both report FLOP/s = 2*B*M*N*K per wall-clock second.
//
// Flags besides Google Benchmark's:
//   --shapes=BxMxNxK,...  (default: the BERT-base shapes and 1x1024x1024x1024)
//   --threads=T           OpenBLAS threads (default 1)
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using Shape = std::array<int64_t, 4>; // B, M, N, K

constexpr llvm::StringLiteral kDefaultShapes =
    "1x128x768x768,1x128x3072x768,1x128x768x3072,1x128x30522x768,"
    "12x128x128x64,12x128x64x128,1x1024x1024x1024";

bool parseShapes(llvm::StringRef text, std::vector<Shape> &shapes) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    llvm::SmallVector<llvm::StringRef, 4> dims;
    item.split(dims, 'x');
    Shape shape;
    if (dims.size() != shape.size())
      return false;
    for (auto [dim, text] : llvm::zip_equal(shape, dims))
      if (text.getAsInteger(10, dim) || dim <= 0)
        return false;
    shapes.push_back(shape);
  }
  return !shapes.empty();
}

void benchmarkSgemm(benchmark::State &state, Shape shape) {
  auto [b, m, n, k] = shape;
  std::mt19937 generator(0);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto randomArray = [&](int64_t size) {
    std::vector<float> array(size);
    for (float &value : array)
      value = uniform(generator);
    return array;
  };
  std::vector<float> lhs = randomArray(b * m * k);
  std::vector<float> rhs = randomArray(b * k * n);
  std::vector<float> result(b * m * n);
  for (auto _ : state) {
    for (int64_t i = 0; i < b; ++i)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                  lhs.data() + i * m * k, k, rhs.data() + i * k * n, n, 0.0f,
                  result.data() + i * m * n, n);
    benchmark::DoNotOptimize(result.data());
    benchmark::ClobberMemory();
  }
  state.counters["FLOPS"] = benchmark::Counter(
      2.0 * b * m * n * k, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::OneK::kIs1000);
  state.counters["threads"] = openblas_get_num_threads();
}

} // namespace

int main(int argc, char **argv) {
  std::string shapesText = kDefaultShapes.str();
  int threads = 1;
  // Own flags first: Google Benchmark rejects flags it does not know.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--shapes=")) {
      shapesText = arg.str();
    } else if (arg.consume_front("--threads=")) {
      if (arg.getAsInteger(10, threads) || threads < 1) {
        std::fprintf(stderr, "error: --threads expects a positive integer\n");
        return 2;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  std::vector<Shape> shapes;
  if (!parseShapes(shapesText, shapes)) {
    std::fprintf(stderr,
                 "error: --shapes expects BxMxNxK[,BxMxNxK...], got '%s'\n",
                 shapesText.c_str());
    return 2;
  }
  openblas_set_num_threads(threads);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  for (const Shape &shape : shapes) {
    std::string name = "OpenBLAS_sgemm/" + std::to_string(shape[0]) + "x" +
                       std::to_string(shape[1]) + "x" +
                       std::to_string(shape[2]) + "x" +
                       std::to_string(shape[3]);
    benchmark::RegisterBenchmark(name.c_str(), benchmarkSgemm, shape)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
