// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-lower-vectors))' | FileCheck %s --check-prefix=W16
// RUN: dispatchlab-opt %s --pass-pipeline='builtin.module(func.func(dispatchlab-lower-vectors{vector-width=8}))' | FileCheck %s --check-prefix=W8

// A 16x16 transpose takes the AVX-512 sequence of 16-lane shuffles with 16
// lanes (the default); with fewer lanes it is one shuffle of the flattened
// vector.
// W16-LABEL: func.func @transpose_16x16
// W16:         vector.shuffle {{.+}} : vector<16xf32>, vector<16xf32>
// W16-NOT:     vector<256xf32>, vector<256xf32>
// W8-LABEL:  func.func @transpose_16x16
// W8:          vector.shuffle {{.+}} : vector<256xf32>, vector<256xf32>
// W8-NOT:      vector<16xf32>, vector<16xf32>
func.func @transpose_16x16(%v: vector<16x16xf32>) -> vector<16x16xf32> {
  %t = vector.transpose %v, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %t : vector<16x16xf32>
}

// A batch contraction of f16 inputs into an f32 accumulator (demoted
// contraction inputs) extends its inputs, then lowers to f32 FMAs; upstream's
// outer-product lowering alone left it as it was.
// W16-LABEL: func.func @mixed_precision_batch_contract
// W16-DAG:     arith.extf {{.+}} : vector<16xf16> to vector<16xf32>
// W16-DAG:     arith.extf {{.+}} : vector<16x32xf16> to vector<16x32xf32>
// W16:         vector.fma {{.+}} : vector<32xf32>
// W16-NOT:     vector.contract
#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#acc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @mixed_precision_batch_contract(%a: vector<1x1x16xf16>, %b: vector<1x16x32xf16>, %c: vector<1x1x32xf32>) -> vector<1x1x32xf32> {
  %r = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x1x16xf16>, vector<1x16x32xf16> into vector<1x1x32xf32>
  return %r : vector<1x1x32xf32>
}

// A transfer of rows narrower than a register over contiguous memory (an
// interleaving copy's 16 pixels x 3 channels) becomes one transfer of 48
// floats instead of 16 of 3; over rows that are not contiguous it stays.
// W16-LABEL: func.func @flatten_narrow_rows
// W16:         %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1]] : memref<16x3xf32> into memref<48xf32>
// W16:         vector.transfer_write %{{.+}}, %[[FLAT]]{{.+}} : vector<48xf32>, memref<48xf32>
// W16:         vector.transfer_write {{.+}} : vector<16x3xf32>, memref<16x3xf32, strided<[4, 1]>>
func.func @flatten_narrow_rows(%v: vector<16x3xf32>, %m: memref<16x3xf32>, %s: memref<16x3xf32, strided<[4, 1]>>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32>
  vector.transfer_write %v, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32, strided<[4, 1]>>
  return
}

// A read whose every use takes one element (an outer product's broadcast
// left-hand side: a 3-channel strided convolution's 8 pixels x 3 channels)
// becomes one scalar load per element, not a vector<8x3> read taken apart.
// W16-LABEL: func.func @broadcast_operand_from_scalar_loads
// W16-COUNT-24: memref.load %{{.+}} : memref<8x3xf32, strided<[6, 1]>>
// W16-NOT:     vector.transfer_read
// W16:         return
#bm = affine_map<(m, n, k) -> (m, k)>
#bk = affine_map<(m, n, k) -> (k, n)>
#bn = affine_map<(m, n, k) -> (m, n)>
func.func @broadcast_operand_from_scalar_loads(%a: memref<8x3xf32, strided<[6, 1]>>, %b: vector<3x32xf32>, %c: vector<8x32xf32>) -> vector<8x32xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %lhs = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x3xf32, strided<[6, 1]>>, vector<8x3xf32>
  %r = vector.contract {indexing_maps = [#bm, #bk, #bn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %b, %c : vector<8x3xf32>, vector<3x32xf32> into vector<8x32xf32>
  return %r : vector<8x32xf32>
}

// A sigmoid, 1 / (1 + exp(z)) over f32 vectors, becomes e = exp(-|z|) with
// -|z| clamped below at ln(2^-126), rounded and rebuilt as 2^n from one biased
// FMA and a shift, f = e / (1 + e) by the reciprocal estimate (arcp, ninf;
// contract for its Newton step), and 1 - f where z < 0; no exp is left for
// the polynomial patterns. A reciprocal of anything else stays an exact
// division.
// W16-LABEL: func.func @logistic_expansion
// W16-DAG:     %[[CUTOFF:.+]] = arith.constant dense<-87.3365402> : vector<16xf32>
// W16-DAG:     %[[BIAS:.+]] = arith.constant dense<0x4B40007F> : vector<16xf32>
// W16-DAG:     %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// W16:         %[[ABS:.+]] = math.absf %[[Z:.+]] : vector<16xf32>
// W16:         %[[NEG:.+]] = arith.negf %[[ABS]]
// W16:         %[[LOW:.+]] = arith.cmpf olt, %[[NEG]], %[[CUTOFF]]
// W16:         %[[A:.+]] = arith.select %[[LOW]], %[[CUTOFF]], %[[NEG]]
// W16:         %[[BIASED:.+]] = math.fma %[[A]], %{{.+}}, %[[BIAS]]
// W16:         %[[BITS:.+]] = arith.bitcast %[[BIASED]] : vector<16xf32> to vector<16xi32>
// W16:         %[[SHIFTED:.+]] = arith.shli %[[BITS]]
// W16:         %[[SCALE:.+]] = arith.bitcast %[[SHIFTED]] : vector<16xi32> to vector<16xf32>
// W16:         %[[N:.+]] = arith.subf %[[BIASED]], %[[BIAS]]
// W16-COUNT-7: math.fma
// W16:         %[[E:.+]] = math.fma %{{.+}}, %{{.+}}, %[[SCALE]]
// W16:         %[[SUM:.+]] = arith.addf %[[E]], %[[ONE]]
// W16:         %[[F:.+]] = arith.divf %[[E]], %[[SUM]] fastmath<ninf,arcp,contract>
// W16:         %[[SIGN:.+]] = arith.cmpf olt, %[[Z]], %{{.+}}
// W16:         %[[REFLECTED:.+]] = arith.subf %[[ONE]], %[[F]]
// W16:         %[[R:.+]] = arith.select %[[SIGN]], %[[REFLECTED]], %[[F]]
// W16-NOT:     math.exp
// W16:         return %[[R]]
// W16-LABEL: func.func @other_reciprocal_exact
// W16-NOT:     fastmath
// W16-NOT:     arith.select
// W16:         return
func.func @logistic_expansion(%z: vector<16xf32>) -> vector<16xf32> {
  %one = arith.constant dense<1.000000e+00> : vector<16xf32>
  %e = math.exp %z : vector<16xf32>
  %sum = arith.addf %e, %one : vector<16xf32>
  %r = arith.divf %one, %sum : vector<16xf32>
  return %r : vector<16xf32>
}
func.func @other_reciprocal_exact(%z: vector<16xf32>) -> vector<16xf32> {
  %one = arith.constant dense<1.000000e+00> : vector<16xf32>
  %sum = arith.addf %z, %one : vector<16xf32>
  %r = arith.divf %one, %sum : vector<16xf32>
  return %r : vector<16xf32>
}
