//===- TransientMemoryTest.cpp - peak of the buffers between dispatches ---===//

#include "core/codegen/TransientMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace dispatchlab;

namespace {
class TransientMemoryTest : public ::testing::Test {
protected:
  TransientMemoryTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        memref::MemRefDialect, scf::SCFDialect>();
  }

  /// The peak of @host in `ir`, which also declares the dispatches it calls.
  int64_t peak(StringRef ir) {
    std::string text = R"(
      func.func private @d1(memref<64xf32>)
      func.func private @d2(memref<64xf32>, memref<64xf32>)
      func.func private @d3(memref<64xf32>, memref<128xf32>)
      func.func private @d4(memref<128xf32>, memref<64xf32>)
      func.func private @m(memref<8x8xf32>)
    )" + ir.str();
    module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return -1;
    return computeTransientPeakBytes(
        module->lookupSymbol<func::FuncOp>("host"));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// Each buffer is live from its allocation to its last use: a (256 B) dies
// at d3, before c exists, so a + b (d3) and b + c (d4) are 768 B each and
// never all three (1024 B) at once.
TEST_F(TransientMemoryTest, LiveFromAllocationToLastUse) {
  EXPECT_EQ(peak(R"(
    func.func @host(%in: memref<64xf32>, %out: memref<64xf32>) {
      %a = memref.alloc() : memref<64xf32>
      call @d2(%in, %a) : (memref<64xf32>, memref<64xf32>) -> ()
      %b = memref.alloc() : memref<128xf32>
      call @d3(%a, %b) : (memref<64xf32>, memref<128xf32>) -> ()
      %c = memref.alloc() : memref<64xf32>
      call @d4(%b, %c) : (memref<128xf32>, memref<64xf32>) -> ()
      call @d2(%c, %out) : (memref<64xf32>, memref<64xf32>) -> ()
      return
    }
  )"),
            768);
}

// A view keeps its buffer alive; a use inside a loop counts at the loop.
TEST_F(TransientMemoryTest, ViewsAndNestedUses) {
  EXPECT_EQ(peak(R"(
    func.func @host(%in: memref<64xf32>, %out: memref<64xf32>) {
      %a = memref.alloc() : memref<64xf32>
      call @d2(%in, %a) : (memref<64xf32>, memref<64xf32>) -> ()
      %view = memref.expand_shape %a [[0, 1]] output_shape [8, 8]
          : memref<64xf32> into memref<8x8xf32>
      %b = memref.alloc() : memref<128xf32>
      call @d3(%in, %b) : (memref<64xf32>, memref<128xf32>) -> ()
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        func.call @m(%view) : (memref<8x8xf32>) -> ()
      }
      call @d4(%b, %out) : (memref<128xf32>, memref<64xf32>) -> ()
      return
    }
  )"),
            256 + 512);
}

// A buffer only written by one dispatch and copied into the caller's output
// stands for that output (what buffer-results-to-out-params leaves); inputs
// and outputs are never counted.
TEST_F(TransientMemoryTest, StagedOutputsAreNotTransient) {
  EXPECT_EQ(peak(R"(
    func.func @host(%in: memref<64xf32>, %out: memref<64xf32>) {
      %a = memref.alloc() : memref<64xf32>
      call @d2(%in, %a) : (memref<64xf32>, memref<64xf32>) -> ()
      memref.copy %a, %out : memref<64xf32> to memref<64xf32>
      return
    }
  )"),
            0);
  // Read by another dispatch as well: it crosses a boundary.
  EXPECT_EQ(peak(R"(
    func.func @host(%in: memref<64xf32>, %out: memref<64xf32>) {
      %a = memref.alloc() : memref<64xf32>
      call @d2(%in, %a) : (memref<64xf32>, memref<64xf32>) -> ()
      call @d1(%a) : (memref<64xf32>) -> ()
      memref.copy %a, %out : memref<64xf32> to memref<64xf32>
      return
    }
  )"),
            256);
}

} // namespace
