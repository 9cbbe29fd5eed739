// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{mode=upstream}))' | FileCheck %s --check-prefix=UPSTREAM
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{fuse-truncate-ops=true fuse-broadcast-ops=true fuse-multi-reduction=false}))' | FileCheck %s --check-prefix=KNOBS
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-elementwise-op-fusion{max-operands=4}))' | FileCheck %s --check-prefix=LIMIT

#id = affine_map<(d0, d1) -> (d0, d1)>
// A single-use elementwise producer is fused into its elementwise consumer.
// CHECK-LABEL: func.func @single_use_chain
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @single_use_chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// IREE refuses to recompute a producer with two uses; upstream fuses it into
// each consumer.
// CHECK-LABEL: func.func @multi_use_producer
// CHECK-COUNT-3: linalg.generic
// UPSTREAM-LABEL: func.func @multi_use_producer
// UPSTREAM-COUNT-2: linalg.generic
// UPSTREAM-NOT: linalg.generic
// UPSTREAM:     return
func.func @multi_use_producer(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.subf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A producer yielding i1 is fused even with several uses.
// CHECK-LABEL: func.func @i1_producer_multi_use
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @i1_producer_multi_use(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ei = tensor.empty() : tensor<4x8xi1>
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%ei : tensor<4x8xi1>) {
  ^bb0(%x: f32, %y: f32, %o: i1):
    %c = arith.cmpf ogt, %x, %y : f32
    linalg.yield %c : i1
  } -> tensor<4x8xi1>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%c: i1, %x: f32, %y: f32, %o: f32):
    %s = arith.select %c, %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b, %a : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%c: i1, %x: f32, %y: f32, %o: f32):
    %s = arith.select %c, %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A truncate stays out of a binary consumer unless fuse-truncate-ops is set.
// CHECK-LABEL: func.func @truncate_into_binary
// CHECK:         arith.truncf
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK:           arith.addf
// KNOBS-LABEL: func.func @truncate_into_binary
// KNOBS:         linalg.generic
// KNOBS:           arith.truncf
// KNOBS-NEXT:      arith.addf
// KNOBS-NOT:     linalg.generic
// KNOBS:         return
func.func @truncate_into_binary(%a: tensor<4x8xf32>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A truncate does fuse into a unary elementwise consumer.
// CHECK-LABEL: func.func @truncate_into_unary
// CHECK:         linalg.generic
// CHECK:           arith.truncf
// CHECK-NEXT:      arith.negf
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @truncate_into_unary(%a: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.negf %x : f16
    linalg.yield %s : f16
  } -> tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}

// -----

#id1 = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#r1 = affine_map<(d0) -> (d0)>
// A pure broadcast consumer is refused unless fuse-broadcast-ops is set.
// CHECK-LABEL: func.func @broadcast_consumer
// CHECK-COUNT-2: linalg.generic
// KNOBS-LABEL: func.func @broadcast_consumer
// KNOBS-COUNT-1: linalg.generic
// KNOBS-NOT:     linalg.generic
// KNOBS:         return
func.func @broadcast_consumer(%a: tensor<8xf32>) -> tensor<4x8xf32> {
  %e1 = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id1, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
// An elementwise producer fuses into a reduction over two loops only with
// fuse-multi-reduction (on by default).
// CHECK-LABEL: func.func @multi_reduction_consumer
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
// KNOBS-LABEL: func.func @multi_reduction_consumer
// KNOBS-COUNT-2: linalg.generic
func.func @multi_reduction_consumer(%a: tensor<2x4x8xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %0 = linalg.generic {indexing_maps = [#in, #in], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  %1 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%0 : tensor<2x4x8xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The fused op would read more than max-operands distinct values.
// LIMIT-LABEL: func.func @operand_limit
// LIMIT-COUNT-2: linalg.generic
// CHECK-LABEL: func.func @operand_limit
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @operand_limit(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Ops inside a dispatch are left alone unless intra-dispatch is set.
// CHECK-LABEL: func.func @inside_dispatch
// CHECK:         dispatch.region
// CHECK-COUNT-2: linalg.generic
func.func @inside_dispatch(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = dispatch.region -> (tensor<4x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = math.exp %x : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.negf %x : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
