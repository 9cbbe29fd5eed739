// Inputs holding IREE's pre-formed flow.dispatch.region: the loader makes
// each one of our dispatch.regions, so formation and
// CloneProducersIntoDispatchRegions see them as IREE's passes do.
//
// RUN: split-file %s %t
// RUN: dispatchlab compile %t/blocked.mlir --pipeline=formation --aggressive-fusion --emit=dispatch-ir | FileCheck %s --check-prefix=BLOCKED
// RUN: dispatchlab compile %t/clone.mlir --pipeline=formation --emit=dispatch-ir | FileCheck %s --check-prefix=CLONE
// RUN: dispatchlab run %t/clone.mlir | FileCheck %s --check-prefix=EXEC

// A producer read by a pre-formed region before the root cannot join the
// root's dispatch (hasExternalUserBlockingProducerFusion: a dispatch is
// never moved), so the exp gets a dispatch of its own; the pre-formed
// region takes no consumer either.
// BLOCKED-LABEL: func.func public @blocked
//       BLOCKED:   %[[EXP:.+]] = dispatch.region
//       BLOCKED:     math.exp
//       BLOCKED:   %[[PRE:.+]] = dispatch.region
//       BLOCKED:     arith.negf
//       BLOCKED:   dispatch.region
//       BLOCKED:     linalg.generic {{.*}} ins(%[[EXP]] :
//       BLOCKED:   dispatch.region
//       BLOCKED:     linalg.generic {{.*}} ins(%[[PRE]] :
//   BLOCKED-NOT:   flow.

// A fill the pre-formed region reads is cloned into it; the original dies.
// CLONE-LABEL: func.func public @clone
//   CLONE-NOT:   linalg.fill
//       CLONE:   dispatch.region
//       CLONE:     %[[FILL:.+]] = linalg.fill
//       CLONE:     linalg.generic {{.*}} ins(%{{.+}}, %[[FILL]] :
//       CLONE:     dispatch.return
//   CLONE-NOT:   flow.
// EXEC: "dispatches": 1

//--- blocked.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
util.func public @blocked(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %pre = flow.dispatch.region -> (tensor<4x8xf32>) {
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%exp : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.negf %a : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
    flow.return %neg : tensor<4x8xf32>
  }
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %abs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%pre : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.absf %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  util.return %pre, %sum, %abs : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}

//--- clone.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @clone(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %ones = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %pre = flow.dispatch.region -> (tensor<4x8xf32>) {
    %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %ones : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.addf %a, %b : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
    flow.return %add : tensor<4x8xf32>
  }
  util.return %pre : tensor<4x8xf32>
}
