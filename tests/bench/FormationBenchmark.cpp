//===- FormationBenchmark.cpp - how dispatch formation time scales --------===//
//
// Google Benchmark over synthetic programs of 100 to 20,000 ops, timing the
// planner (`decideFusionGroups`) alone and the whole FormDispatchRegions
// pass, with and without aggressive fusion. Each benchmark family reports a
// fitted big-O: formation must stay near-linear in the number of ops.
//
// Programs are emitted as MLIR text and parsed once per (family, size),
// outside the timed loop. Planning does not mutate the IR, so it runs on the
// cached module; the pass runs on a clone made while timing is paused.
//
// Set DISPATCHLAB_BENCH_DUMP=DIR to also write every generated program to
// DIR/<family>_<ops>.mlir (to check decisions with dispatchlab-opt).
//
//===----------------------------------------------------------------------===//

#include "core/pipeline/Registration.h"
#include "heuristics/FusionPlanner.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

using namespace mlir;
using namespace dispatchlab;

namespace {

enum class Family {
  /// matmul roots each followed by bias and relu generics (CNN-like).
  CnnChain,
  /// A long chain of elementwise generics: no roots, all fallback.
  EltwiseChain,
  /// matmul fanning out to a two-op and a one-op branch that rejoin (the
  /// join reads the short branch through its init): multi-use producers and
  /// the consumer cycle guard.
  Diamond,
  /// Elementwise diamonds only: aggressive fusion merges them all into one
  /// group, so every multi-use producer is checked against a large group.
  EltwiseDiamond,
  /// One matmul read by every later op, each of which also reads a long
  /// chain of non-Linalg ops; half of those chains start at the matmul. Every
  /// cycle-guard query walks back along a chain: IREE's quadratic case.
  FanOut,
};

const char *getFamilyName(Family family) {
  switch (family) {
  case Family::CnnChain:
    return "cnn_chain";
  case Family::EltwiseChain:
    return "eltwise_chain";
  case Family::Diamond:
    return "diamond";
  case Family::EltwiseDiamond:
    return "eltwise_diamond";
  case Family::FanOut:
    return "fanout";
  }
  return "unknown";
}

/// Writes a `func.func` of about `numOps` ops over 64x64 f32 tensors.
class ProgramEmitter {
public:
  explicit ProgramEmitter(int64_t numOps) : budget(numOps) {}

  std::string emit(Family family) {
    os << "func.func @main(%arg0: " << kT << ", %w: " << kT
       << ", %bias: tensor<64xf32>) -> " << kT << " {\n";
    // Shared constants, as CSE leaves them: their use lists grow with n.
    line("%zero = arith.constant 0.0 : f32");
    line("%empty = tensor.empty() : " + std::string(kT));
    std::string last = "%arg0";
    switch (family) {
    case Family::CnnChain:
      while (count + 4 <= budget) {
        std::string mm = matmul(last);
        last = relu(bias(mm));
      }
      break;
    case Family::EltwiseChain:
      for (unsigned i = 0; count < budget; ++i)
        last = i % 3 == 0   ? add(last, "%arg0")
               : i % 3 == 1 ? relu(last)
                            : bias(last);
      break;
    case Family::Diamond:
      while (count + 6 <= budget) {
        std::string mm = matmul(last);
        std::string longBranch = bias(relu(mm));
        std::string shortBranch = neg(mm);
        last = accumulate(longBranch, shortBranch);
      }
      break;
    case Family::EltwiseDiamond:
      while (count + 4 <= budget) {
        std::string head = relu(last);
        last = add(bias(neg(head)), relu(head));
      }
      break;
    case Family::FanOut: {
      std::string mm = matmul(last);
      std::string dependent = mm, independent = "%arg0";
      for (unsigned i = 0; count + 3 <= budget; ++i) {
        dependent = tensorNeg(dependent);
        independent = tensorNeg(independent);
        last = add(i % 2 ? dependent : independent, mm);
      }
      break;
    }
    }
    os << "  return " << last << " : " << kT << "\n}\n";
    return text;
  }

  int64_t getNumOps() const { return count; }

private:
  static constexpr const char *kT = "tensor<64x64xf32>";
  static constexpr const char *kId = "affine_map<(d0, d1) -> (d0, d1)>";

  std::string fresh() { return "%v" + std::to_string(nextId++); }
  void line(const std::string &s) {
    os << "  " << s << "\n";
    ++count;
  }

  std::string matmul(const std::string &lhs) {
    std::string fill = fresh(), mm = fresh();
    line(fill + " = linalg.fill ins(%zero : f32) outs(%empty : " + kT +
         ") -> " + kT);
    line(mm + " = linalg.matmul ins(" + lhs + ", %w : " + kT + ", " + kT +
         ") outs(" + fill + " : " + kT + ") -> " + kT);
    return mm;
  }

  /// A 2-d all-parallel generic writing into %empty (or `init`).
  std::string generic(const std::string &ins, const std::string &insTypes,
                      const std::string &maps, const std::string &args,
                      const std::string &body, const std::string &init) {
    std::string result = fresh();
    line(result + " = linalg.generic {indexing_maps = [" + maps + ", " + kId +
         "], iterator_types = [\"parallel\", \"parallel\"]} ins(" + ins +
         " : " + insTypes + ") outs(" + init + " : " + kT + ") {\n  ^bb0(" +
         args + "):\n" + body + "  } -> " + kT);
    return result;
  }

  std::string relu(const std::string &x) {
    return generic(x, kT, kId, "%a: f32, %o: f32",
                   "    %r = arith.maximumf %a, %zero : f32\n"
                   "    linalg.yield %r : f32\n",
                   "%empty");
  }
  std::string neg(const std::string &x) {
    return generic(x, kT, kId, "%a: f32, %o: f32",
                   "    %r = arith.negf %a : f32\n"
                   "    linalg.yield %r : f32\n",
                   "%empty");
  }
  std::string bias(const std::string &x) {
    return generic(x + ", %bias", std::string(kT) + ", tensor<64xf32>",
                   std::string(kId) + ", affine_map<(d0, d1) -> (d1)>",
                   "%a: f32, %b: f32, %o: f32",
                   "    %r = arith.addf %a, %b : f32\n"
                   "    linalg.yield %r : f32\n",
                   "%empty");
  }
  std::string add(const std::string &x, const std::string &y) {
    return generic(x + ", " + y, std::string(kT) + ", " + kT,
                   std::string(kId) + ", " + kId, "%a: f32, %b: f32, %o: f32",
                   "    %r = arith.addf %a, %b : f32\n"
                   "    linalg.yield %r : f32\n",
                   "%empty");
  }
  /// Adds `x` into `acc`, read through the init (residual-style join).
  std::string accumulate(const std::string &x, const std::string &acc) {
    return generic(x, kT, kId, "%a: f32, %o: f32",
                   "    %r = arith.addf %a, %o : f32\n"
                   "    linalg.yield %r : f32\n",
                   acc);
  }
  /// A tensor-level arith op: neither a fusion op nor cloneable.
  std::string tensorNeg(const std::string &x) {
    std::string result = fresh();
    line(result + " = arith.negf " + x + " : " + kT);
    return result;
  }

  int64_t budget;
  int64_t count = 1; // The return.
  unsigned nextId = 0;
  std::string text;
  llvm::raw_string_ostream os{text};
};

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerDialects(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    // Single-threaded, so timings do not depend on the other cores' load.
    ctx->disableMultithreading();
    return ctx;
  }();
  return *context;
}

struct Program {
  OwningOpRef<ModuleOp> module;
  int64_t numOps;
};

/// Parses each (family, size) once; later calls reuse it.
Program &getProgram(Family family, int64_t numOps) {
  static std::map<std::pair<Family, int64_t>, Program> cache;
  auto it = cache.find({family, numOps});
  if (it != cache.end())
    return it->second;
  ProgramEmitter emitter(numOps);
  std::string text = emitter.emit(family);
  if (const char *dir = std::getenv("DISPATCHLAB_BENCH_DUMP")) {
    std::ofstream(std::string(dir) + "/" + getFamilyName(family) + "_" +
                  std::to_string(numOps) + ".mlir")
        << text;
  }
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &getContext());
  if (!module) {
    llvm::errs() << "failed to parse the generated " << getFamilyName(family)
                 << " program\n";
    std::abort();
  }
  return cache[{family, numOps}] = {std::move(module), emitter.getNumOps()};
}

func::FuncOp getMain(ModuleOp module) {
  return module.lookupSymbol<func::FuncOp>("main");
}

/// A fingerprint of the decisions (which op lands in which group, in order),
/// so runs before and after a performance change can be compared.
double getDecisionSignature(func::FuncOp func, const FusionTracker &tracker) {
  llvm::DenseMap<Operation *, uint64_t> index;
  func.walk([&](Operation *op) { index.try_emplace(op, index.size()); });
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&](uint64_t value) { hash = (hash ^ value) * 1099511628211ull; };
  for (const auto &group : tracker.getGroups()) {
    mix(~0ull);
    for (Operation *op : group->getFusedOperations())
      mix(index.lookup(op));
  }
  // Exactly representable in the double a counter holds.
  return static_cast<double>(hash >> 12);
}

void reportCounters(benchmark::State &state, const Program &program,
                    const FusionTracker &tracker) {
  size_t largest = 0;
  for (const auto &group : tracker.getGroups())
    largest = std::max(largest, group->size());
  state.counters["sig"] =
      getDecisionSignature(getMain(*program.module), tracker);
  state.counters["ops"] = program.numOps;
  state.counters["groups"] = tracker.getGroups().size();
  state.counters["largest"] = largest;
  state.SetComplexityN(program.numOps);
}

void benchmarkPlanning(benchmark::State &state, Family family,
                       bool aggressive) {
  Program &program = getProgram(family, state.range(0));
  func::FuncOp func = getMain(*program.module);
  HeuristicOptions knobs;
  knobs.aggressiveFusion = aggressive;
  size_t numGroups = 0;
  for (auto _ : state) {
    FusionTracker tracker;
    decideFusionGroups(func.getFunctionBody(), knobs, tracker);
    numGroups = tracker.getGroups().size();
    benchmark::DoNotOptimize(numGroups);
  }
  // One more, untimed, for the counters.
  FusionTracker tracker;
  decideFusionGroups(func.getFunctionBody(), knobs, tracker);
  reportCounters(state, program, tracker);
}

void benchmarkPass(benchmark::State &state, Family family, bool aggressive) {
  Program &program = getProgram(family, state.range(0));
  PassManager pm(&getContext());
  // Verification is not part of formation.
  pm.enableVerifier(false);
  HeuristicOptions options;
  options.aggressiveFusion = aggressive;
  pm.addNestedPass<func::FuncOp>(createFormDispatchRegionsPass(options));
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> clone = program.module->clone();
    state.ResumeTiming();
    if (failed(pm.run(*clone))) {
      state.SkipWithError("FormDispatchRegions failed");
      break;
    }
    state.PauseTiming();
    clone = nullptr;
    state.ResumeTiming();
  }
  HeuristicOptions knobs;
  knobs.aggressiveFusion = aggressive;
  FusionTracker tracker;
  decideFusionGroups(getMain(*program.module).getFunctionBody(), knobs,
                     tracker);
  reportCounters(state, program, tracker);
}

void registerBenchmarks() {
  for (Family family : {Family::CnnChain, Family::EltwiseChain, Family::Diamond,
                        Family::EltwiseDiamond, Family::FanOut}) {
    for (bool aggressive : {false, true}) {
      std::string suffix = std::string(getFamilyName(family)) +
                           "/aggressive:" + (aggressive ? "1" : "0");
      for (bool pass : {false, true}) {
        auto fn = pass ? benchmarkPass : benchmarkPlanning;
        benchmark::RegisterBenchmark(
            ((pass ? "Pass/" : "Plan/") + suffix).c_str(),
            [=](benchmark::State &state) { fn(state, family, aggressive); })
            ->Args({100})
            ->Args({1000})
            ->Args({5000})
            ->Args({20000})
            ->Unit(benchmark::kMillisecond)
            ->Complexity();
      }
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  registerBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
