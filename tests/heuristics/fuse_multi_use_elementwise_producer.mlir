// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-multi-use-elementwise-producer))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-fuse-multi-use-elementwise-producer{num-iterations=1}))' | FileCheck %s --check-prefix=ONE

#id = affine_map<(d0, d1) -> (d0, d1)>
// Round 1 fuses the producer into its first consumer, which also yields the
// producer's value for the second consumer; round 2 fuses that op into the
// second consumer.
// ONE-LABEL: func.func @two_consumers
// ONE:         %[[F:.+]]:2 = linalg.generic
// ONE:           math.exp
// ONE:           arith.mulf
// ONE:         %[[S:.+]] = linalg.generic
// ONE-SAME:      ins(%[[F]]#{{[01]}},
// ONE:           arith.subf
// ONE:         return %[[F]]#{{[01]}}, %[[S]]
// CHECK-LABEL: func.func @two_consumers
// CHECK:         %[[F:.+]]:2 = linalg.generic
// CHECK:           math.exp
// CHECK:           arith.mulf
// CHECK:           arith.subf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[F]]#0, %[[F]]#1
func.func @two_consumers(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
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
// Bit-extend producers are left to be cloned into their users.
// CHECK-LABEL: func.func @extend_producer
// CHECK:         arith.extf
// CHECK:         linalg.yield
// CHECK-COUNT-2: linalg.generic
func.func @extend_producer(%a: tensor<4x8xf16>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %s = arith.extf %x : f16 to f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.subf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#r1 = affine_map<(d0) -> (d0)>
#b = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// Producer and consumer must have the same loop count.
// CHECK-LABEL: func.func @different_loop_count
// CHECK-COUNT-3: linalg.generic
func.func @different_loop_count(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %e1 = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#b, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.negf %x : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %2, %1 : tensor<8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
// Reduction consumers are skipped; the all-parallel user later in the block
// does not dominate the reduction, so nothing fuses.
// CHECK-LABEL: func.func @reduction_consumer
// CHECK-COUNT-3: linalg.generic
func.func @reduction_consumer(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.negf %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %1, %2 : tensor<4xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A consumer that also reads the producer inside its body (tensor.extract)
// keeps it as an operand: fusing would capture the fused op's own result
// (invalid IR before this rule).
// CHECK-LABEL: func.func @read_in_body
// CHECK:         %[[NEG:.+]] = linalg.generic
// CHECK:           arith.negf
// CHECK:         linalg.generic {{.+}} ins(%[[NEG]] :
// CHECK:           tensor.extract %[[NEG]]
func.func @read_in_body(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%neg : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %first = tensor.extract %neg[%i, %c0] : tensor<4x8xf32>
    %s = arith.addf %in, %first : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %sum : tensor<4x8xf32>
}
