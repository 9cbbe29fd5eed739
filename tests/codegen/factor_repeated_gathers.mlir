// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-factor-repeated-gathers,canonicalize,cse))' | FileCheck %s
// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-factor-repeated-gathers,dispatchlab-tile-and-fuse-dispatches,canonicalize,cse,dispatchlab-vectorize-dispatches,canonicalize,cse))' | FileCheck %s --check-prefix=VEC

// A nearest upsampling by 4: 20 output rows read 5 source rows, each
// row's columns gathered. The gather goes into a table of the 5 source
// rows (over the channel, source row and output column), computed once;
// the resize reads the table's row at the output row's source row.
// CHECK-LABEL: func.func @nearest_rows_dispatch
// CHECK-SAME:    (%[[SRC:.+]]: tensor<2x5x5xf32>)
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x5x20xf32>
// CHECK:         %[[TABLE:.+]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x5x20xf32>)
// CHECK:           %[[C:.+]] = linalg.index 0 : index
// CHECK:           %[[R:.+]] = linalg.index 1 : index
// CHECK:           %[[X:.+]] = linalg.index 2 : index
// CHECK:           %[[COL:.+]] = arith.divui %[[X]], %{{.+}} : index
// CHECK:           %[[E:.+]] = tensor.extract %[[SRC]][%[[C]], %[[R]], %[[COL]]] : tensor<2x5x5xf32>
// CHECK:           linalg.yield %[[E]]
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x20x20xf32>)
// CHECK-DAG:       %[[OC:.+]] = linalg.index 0 : index
// CHECK-DAG:       %[[OY:.+]] = linalg.index 1 : index
// CHECK-DAG:       %[[ROW:.+]] = arith.divui %[[OY]], %{{.+}} : index
// CHECK-DAG:       %[[OX:.+]] = linalg.index 2 : index
// CHECK:           %[[READ:.+]] = tensor.extract %[[TABLE]][%[[OC]], %[[ROW]], %[[OX]]] : tensor<2x5x20xf32>
// CHECK:           linalg.yield %[[READ]]
// VEC-LABEL: func.func @nearest_rows_dispatch
// VEC:         scf.forall (%{{.+}}, %{{.+}}) in (2, 5)
// VEC:           vector.gather %{{.+}} : tensor<2x5x5xf32>, vector<16xindex>
// VEC:         scf.forall (%{{.+}}, %[[Y:.+]]) in (2, 20)
// VEC:           %[[ROW:.+]] = arith.divui %[[Y]]
// VEC-NOT:       vector.gather
// VEC:           vector.transfer_read %{{.+}}[%{{.+}}, %[[ROW]], %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x5x20xf32>, vector<16xf32>
#nr = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @nearest_rows_dispatch(%src: tensor<2x5x5xf32>) -> tensor<2x20x20xf32> attributes {dispatchlab.dispatch} {
  %c4 = arith.constant 4 : index
  %empty = tensor.empty() : tensor<2x20x20xf32>
  %out = linalg.generic {indexing_maps = [#nr], iterator_types = ["parallel", "parallel", "parallel"]} outs(%empty : tensor<2x20x20xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 0 : index
    %y = linalg.index 1 : index
    %x = linalg.index 2 : index
    %row = arith.divui %y, %c4 : index
    %col = arith.divui %x, %c4 : index
    %e = tensor.extract %src[%c, %row, %col] : tensor<2x5x5xf32>
    linalg.yield %e : f32
  } -> tensor<2x20x20xf32>
  return %out : tensor<2x20x20xf32>
}

// -----

// Bilinear: four extracts, two source rows by two columns. The two at the
// same column differ only in their row index and share a table; so one
// table per column index, each read at both rows.
// CHECK-LABEL: func.func @bilinear_rows_dispatch
// CHECK-COUNT-2: tensor.extract %{{.+}} : tensor<5x5xf32>
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<20x20xf32>)
// CHECK:           %[[Y:.+]] = linalg.index 0 : index
// CHECK:           %[[R0:.+]] = arith.divui %[[Y]]
// CHECK:           %[[R1:.+]] = arith.minui
// CHECK:           %[[X:.+]] = linalg.index 1 : index
// CHECK:           tensor.extract %[[T0:.+]][%[[R0]], %[[X]]] : tensor<5x20xf32>
// CHECK:           tensor.extract %[[T0]][%[[R1]], %[[X]]] : tensor<5x20xf32>
// CHECK:           tensor.extract %[[T1:.+]][%[[R0]], %[[X]]] : tensor<5x20xf32>
// CHECK:           tensor.extract %[[T1]][%[[R1]], %[[X]]] : tensor<5x20xf32>
// CHECK-NOT:       tensor.extract
#bl = affine_map<(d0, d1) -> (d0, d1)>
func.func @bilinear_rows_dispatch(%src: tensor<5x5xf32>) -> tensor<20x20xf32> attributes {dispatchlab.dispatch} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %empty = tensor.empty() : tensor<20x20xf32>
  %out = linalg.generic {indexing_maps = [#bl], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<20x20xf32>) {
  ^bb0(%o: f32):
    %y = linalg.index 0 : index
    %r0 = arith.divui %y, %c4 : index
    %r0p = arith.addi %r0, %c1 : index
    %r1 = arith.minui %r0p, %c4 : index
    %x = linalg.index 1 : index
    %c0 = arith.divui %x, %c4 : index
    %c0p = arith.addi %c0, %c1 : index
    %c1x = arith.minui %c0p, %c4 : index
    %a = tensor.extract %src[%r0, %c0] : tensor<5x5xf32>
    %b = tensor.extract %src[%r1, %c0] : tensor<5x5xf32>
    %c = tensor.extract %src[%r0, %c1x] : tensor<5x5xf32>
    %d = tensor.extract %src[%r1, %c1x] : tensor<5x5xf32>
    %ab = arith.addf %a, %b : f32
    %cd = arith.addf %c, %d : f32
    %s = arith.addf %ab, %cd : f32
    linalg.yield %s : f32
  } -> tensor<20x20xf32>
  return %out : tensor<20x20xf32>
}

// -----

// 12 output rows from 8 source rows: each source row is read 1.5 times on
// average, under the factor of two a table must save; left as it is.
// CHECK-LABEL: func.func @few_repeats_dispatch
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
#fr = affine_map<(d0, d1) -> (d0, d1)>
func.func @few_repeats_dispatch(%src: tensor<8x8xf32>) -> tensor<12x12xf32> attributes {dispatchlab.dispatch} {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %empty = tensor.empty() : tensor<12x12xf32>
  %out = linalg.generic {indexing_maps = [#fr], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<12x12xf32>) {
  ^bb0(%o: f32):
    %y = linalg.index 0 : index
    %x = linalg.index 1 : index
    %y2 = arith.muli %y, %c2 : index
    %row = arith.divui %y2, %c3 : index
    %x2 = arith.muli %x, %c2 : index
    %col = arith.divui %x2, %c3 : index
    %e = tensor.extract %src[%row, %col] : tensor<8x8xf32>
    linalg.yield %e : f32
  } -> tensor<12x12xf32>
  return %out : tensor<12x12xf32>
}

// -----

// The column is the innermost loop's own index: a contiguous row read,
// nothing gathered; left as it is.
// CHECK-LABEL: func.func @contiguous_row_dispatch
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
#cr = affine_map<(d0, d1) -> (d0, d1)>
func.func @contiguous_row_dispatch(%src: tensor<5x20xf32>) -> tensor<20x20xf32> attributes {dispatchlab.dispatch} {
  %c4 = arith.constant 4 : index
  %empty = tensor.empty() : tensor<20x20xf32>
  %out = linalg.generic {indexing_maps = [#cr], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<20x20xf32>) {
  ^bb0(%o: f32):
    %y = linalg.index 0 : index
    %x = linalg.index 1 : index
    %row = arith.divui %y, %c4 : index
    %e = tensor.extract %src[%row, %x] : tensor<5x20xf32>
    linalg.yield %e : f32
  } -> tensor<20x20xf32>
  return %out : tensor<20x20xf32>
}

// -----

// The row comes from an element of an input (an embedding lookup's
// token id): no table can be computed ahead; left as it is.
// CHECK-LABEL: func.func @row_from_element_dispatch
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
#re = affine_map<(d0, d1) -> (d0)>
#re_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_from_element_dispatch(%ids: tensor<20xindex>, %src: tensor<5x5xf32>) -> tensor<20x20xf32> attributes {dispatchlab.dispatch} {
  %c4 = arith.constant 4 : index
  %empty = tensor.empty() : tensor<20x20xf32>
  %out = linalg.generic {indexing_maps = [#re, #re_out], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<20xindex>) outs(%empty : tensor<20x20xf32>) {
  ^bb0(%id: index, %o: f32):
    %x = linalg.index 1 : index
    %col = arith.divui %x, %c4 : index
    %e = tensor.extract %src[%id, %col] : tensor<5x5xf32>
    linalg.yield %e : f32
  } -> tensor<20x20xf32>
  return %out : tensor<20x20xf32>
}

// -----

// Only dispatch functions are rewritten.
// CHECK-LABEL: func.func @host_function
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
#hf = affine_map<(d0, d1) -> (d0, d1)>
func.func @host_function(%src: tensor<5x5xf32>) -> tensor<20x20xf32> {
  %c4 = arith.constant 4 : index
  %empty = tensor.empty() : tensor<20x20xf32>
  %out = linalg.generic {indexing_maps = [#hf], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<20x20xf32>) {
  ^bb0(%o: f32):
    %y = linalg.index 0 : index
    %x = linalg.index 1 : index
    %row = arith.divui %y, %c4 : index
    %col = arith.divui %x, %c4 : index
    %e = tensor.extract %src[%row, %col] : tensor<5x5xf32>
    linalg.yield %e : f32
  } -> tensor<20x20xf32>
  return %out : tensor<20x20xf32>
}
