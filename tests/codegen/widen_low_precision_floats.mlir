// RUN: dispatchlab-opt %s --split-input-file --verify-diagnostics --dispatchlab-widen-low-precision-floats | FileCheck %s

// Tensors, block arguments and the function's signature become f32; the
// truncate to f16 and the extension back are no-ops then and are gone.
// CHECK-LABEL: func.func @signature(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         } -> tensor<4xf32>
#id = affine_map<(i) -> (i)>
func.func @signature(%x: tensor<4xf32>, %h: tensor<4xf16>) -> tensor<4xf16> {
  %e = tensor.empty() : tensor<4xf16>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %h : tensor<4xf32>, tensor<4xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%a: f32, %b: f16, %o: f16):
    %n = arith.truncf %a : f32 to f16
    %s = arith.addf %n, %b : f16
    linalg.yield %s : f16
  } -> tensor<4xf16>
  return %out : tensor<4xf16>
}

// -----

// Scalar and dense constants keep their values, now as f32.
// CHECK-LABEL: func.func @constants
// CHECK:         arith.constant 1.500000e+00 : f32
// CHECK:         arith.constant dense<[2.500000e-01, -3.000000e+00]> : tensor<2xf32>
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2xf32>)
func.func @constants() -> (tensor<2xf16>, tensor<2xf16>) {
  %c = arith.constant 1.5 : f16
  %d = arith.constant dense<[0.25, -3.0]> : tensor<2xf16>
  %e = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%c : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  return %f, %d : tensor<2xf16>, tensor<2xf16>
}

// -----

// Casts from and to other types than f32 stay, between f32 and that type.
// CHECK-LABEL: func.func @other_casts(%{{.+}}: f64, %{{.+}}: i32) -> (f32, f32, f64)
// CHECK:         arith.truncf %{{.+}} : f64 to f32
// CHECK:         arith.sitofp %{{.+}} : i32 to f32
// CHECK:         arith.extf %{{.+}} : f32 to f64
// CHECK-NOT:     f16
func.func @other_casts(%d: f64, %i: i32) -> (f16, bf16, f64) {
  %a = arith.truncf %d : f64 to f16
  %b = arith.sitofp %i : i32 to bf16
  %c = arith.extf %a : f16 to f64
  return %a, %b, %c : f16, bf16, f64
}

// -----

// Reinterpreting a narrow float's bits has no f32 meaning.
func.func @bitcast(%x: f16) -> i16 {
  // expected-error @+1 {{a bitcast of a narrow float cannot be widened}}
  %b = arith.bitcast %x : f16 to i16
  return %b : i16
}
