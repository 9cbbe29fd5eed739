// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-prefetch-weight-panels))' | FileCheck %s

// Four panels of 32 rows x 16 f32 (32 lines of 64 bytes each). The tile
// loop over 64 columns in steps of 16 picks the panel; 4 row tiles read it
// in 4 steps of 8 rows: 16 iterations per panel, so iteration g = 4r + k/8
// prefetches lines 2g and 2g + 1 of the next panel (the last panel its own),
// one row of 16 floats each, through a [panel, element] view of the weights.
// The shares end at line 31 by construction: no clamp.
// CHECK-DAG:   #[[NEXT:.+]] = affine_map<(d0) -> (d0 + 1, 3)>
// CHECK-DAG:   #[[LINE0:.+]] = affine_map<(d0, d1, d2) -> ((d1 * 4 + d2 floordiv 8) * 2)>
// CHECK-DAG:   #[[LINE1:.+]] = affine_map<(d0, d1, d2) -> ((d1 * 4 + d2 floordiv 8) * 2 + 1)>
// CHECK-DAG:   #[[ELEMENT:.+]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @nested_tile_loops
// CHECK-SAME:    (%[[W:.+]]: memref<4x32x16xf32> {dispatchlab.weight_panels}
// CHECK-NEXT:    %[[FLAT:.+]] = memref.collapse_shape %[[W]] {{\[}}[0], [1, 2]] : memref<4x32x16xf32> into memref<4x512xf32>
// CHECK:         scf.for %[[N:.+]] = %c0 to %c64 step %c16
// CHECK:           scf.for %[[R:.+]] = %c0 to %c4 step %c1
// CHECK:             %[[P:.+]] = affine.apply #{{.+}}(%[[N]])
// CHECK:             scf.for %[[K:.+]] = %c0 to %c32 step %c8
// CHECK-NEXT:          %[[NEXTP:.+]] = affine.min #[[NEXT]](%[[P]])
// CHECK-NEXT:          %[[L0:.+]] = affine.apply #[[LINE0]](%[[N]], %[[R]], %[[K]])
// CHECK-NEXT:          %[[E0:.+]] = affine.apply #[[ELEMENT]](%[[L0]])
// CHECK-NEXT:          memref.prefetch %[[FLAT]][%[[NEXTP]], %[[E0]]], read, locality<2>, data
// CHECK-NEXT:          %[[L1:.+]] = affine.apply #[[LINE1]](%[[N]], %[[R]], %[[K]])
// CHECK-NEXT:          %[[E1:.+]] = affine.apply #[[ELEMENT]](%[[L1]])
// CHECK-NEXT:          memref.prefetch %[[FLAT]][%[[NEXTP]], %[[E1]]], read, locality<2>, data
// CHECK-NEXT:          vector.transfer_read
func.func @nested_tile_loops(%w: memref<4x32x16xf32> {dispatchlab.weight_panels}, %out: memref<4x64xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %n = %c0 to %c64 step %c16 {
    scf.for %r = %c0 to %c4 step %c1 {
      %p = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%n)
      %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
      %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
        %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
        %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
        scf.yield %s : vector<16xf32>
      }
      vector.transfer_write %sum, %out[%r, %n] {in_bounds = [true]} : vector<16xf32>, memref<4x64xf32>
    }
  }
  return
}

// -----

// Linearized tiles (two threads' pipeline): tile t reads panel t / 4 and is
// its panel's (t mod 4)th, so iteration g = 4 (t mod 4) + k/8.
// CHECK-DAG:   #[[NEXT:.+]] = affine_map<(d0) -> (d0 + 1, 3)>
// CHECK-DAG:   #[[LINE0:.+]] = affine_map<(d0, d1) -> (((d0 mod 4) * 4 + d1 floordiv 8) * 2)>
// CHECK-LABEL: func.func @linearized_tiles
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %c1
// CHECK:           %[[P:.+]] = arith.divsi %[[T]], %c4
// CHECK:           scf.for %[[K:.+]] = %c0 to %c32 step %c8
// CHECK-NEXT:        %[[NEXTP:.+]] = affine.min #[[NEXT]](%[[P]])
// CHECK-NEXT:        affine.apply #[[LINE0]](%[[T]], %[[K]])
// CHECK-COUNT-2:     memref.prefetch %{{.+}}[%[[NEXTP]],
func.func @linearized_tiles(%w: memref<4x32x16xf32> {dispatchlab.weight_panels}, %out: memref<16x16xf32>, %first: index, %last: index) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %t = %first to %last step %c1 {
    %p = arith.divsi %t, %c4 : index
    %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
    %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
      %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    vector.transfer_write %sum, %out[%t, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
  }
  return
}

// -----

// Linearized tiles with an outer tile dim first (rows, then panels, then 4
// column tiles): tile t reads panel (t / 4) mod 4, still its panel's
// (t mod 4)th, so the prefetches are those of @linearized_tiles.
// CHECK-DAG:   #[[NEXT:.+]] = affine_map<(d0) -> (d0 + 1, 3)>
// CHECK-DAG:   #[[LINE0:.+]] = affine_map<(d0, d1) -> (((d0 mod 4) * 4 + d1 floordiv 8) * 2)>
// CHECK-LABEL: func.func @panels_inside_rows
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %c1
// CHECK:           %[[P:.+]] = arith.remsi %{{.+}}, %c4
// CHECK:           scf.for %[[K:.+]] = %c0 to %c32 step %c8
// CHECK-NEXT:        %[[NEXTP:.+]] = affine.min #[[NEXT]](%[[P]])
// CHECK-NEXT:        affine.apply #[[LINE0]](%[[T]], %[[K]])
// CHECK-COUNT-2:     memref.prefetch %{{.+}}[%[[NEXTP]],
func.func @panels_inside_rows(%w: memref<4x32x16xf32> {dispatchlab.weight_panels}, %out: memref<64x16xf32>, %first: index, %last: index) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %t = %first to %last step %c1 {
    %q = arith.divsi %t, %c4 : index
    %p = arith.remsi %q, %c4 : index
    %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
    %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
      %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    vector.transfer_write %sum, %out[%t, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
  }
  return
}

// -----

// A panel read once (one row tile, a matrix-vector product's): a stream the
// hardware prefetchers follow, left alone.
// CHECK-LABEL: func.func @panel_read_once
// CHECK-NOT:     memref.prefetch
func.func @panel_read_once(%w: memref<4x32x16xf32> {dispatchlab.weight_panels}, %out: memref<64xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %n = %c0 to %c64 step %c16 {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%n)
    %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
    %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
      %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    vector.transfer_write %sum, %out[%n] {in_bounds = [true]} : vector<16xf32>, memref<64xf32>
  }
  return
}

// -----

// Only arguments PackWeightPanels laid out are panels: the same reads of an
// unmarked argument get no prefetches.
// CHECK-LABEL: func.func @unmarked_argument
// CHECK-NOT:     memref.prefetch
func.func @unmarked_argument(%w: memref<4x32x16xf32>, %out: memref<16x16xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %p = arith.divsi %t, %c4 : index
    %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
    %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
      %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    vector.transfer_write %sum, %out[%t, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
  }
  return
}

// -----

// A panel index the read loop computes itself: the prefetches follow it.
// CHECK-LABEL: func.func @index_in_read_loop
// CHECK:         scf.for %[[K:.+]] = %c0 to %c32 step %c8
// CHECK-NEXT:      %[[P:.+]] = arith.divsi
// CHECK-NEXT:      affine.min #{{.+}}(%[[P]])
// CHECK:           memref.prefetch
func.func @index_in_read_loop(%w: memref<4x32x16xf32> {dispatchlab.weight_panels}, %out: memref<16x16xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %t = %c0 to %c16 step %c1 {
    %sum = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %p = arith.divsi %t, %c4 : index
      %panel = memref.subview %w[%p, 0, 0] [1, 32, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
      %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
      %s = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    vector.transfer_write %sum, %out[%t, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
  }
  return
}

// -----

// Panels of 4 lines read by 16 iterations (4 row tiles x 4 steps of one
// row): the innermost loop would prefetch each line four times over, so the
// prefetch moves out to the row-tile loop, where each of the 4 iterations
// prefetches a line of its own (line r of the next panel).
// CHECK-DAG:   #[[NEXT:.+]] = affine_map<(d0) -> (d0 + 1, 3)>
// CHECK-DAG:   #[[LINE:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @few_lines_per_panel
// CHECK-SAME:    (%[[W:.+]]: memref<4x4x16xf32> {dispatchlab.weight_panels}
// CHECK-NEXT:    %[[FLAT:.+]] = memref.collapse_shape %[[W]]
// CHECK:         scf.for %[[N:.+]] = %c0 to %c64 step %c16
// CHECK:           scf.for %[[R:.+]] = %c0 to %c4 step %c1
// CHECK-NEXT:        %[[P:.+]] = affine.apply #{{.+}}(%[[N]])
// CHECK-NEXT:        %[[NEXTP:.+]] = affine.min #[[NEXT]](%[[P]])
// CHECK-NEXT:        %[[L:.+]] = affine.apply #[[LINE]](%[[N]], %[[R]])
// CHECK:             memref.prefetch %[[FLAT]][%[[NEXTP]], %{{.+}}], read, locality<2>, data
// CHECK-NEXT:        memref.subview
// CHECK:             scf.for
// CHECK-NOT:           memref.prefetch
// CHECK:               vector.transfer_read
func.func @few_lines_per_panel(%w: memref<4x4x16xf32> {dispatchlab.weight_panels}, %out: memref<4x64xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %n = %c0 to %c64 step %c16 {
    scf.for %r = %c0 to %c4 step %c1 {
      %p = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%n)
      %panel = memref.subview %w[%p, 0, 0] [1, 4, 16] [1, 1, 1] : memref<4x4x16xf32> to memref<4x16xf32, strided<[16, 1], offset: ?>>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<16xf32>) {
        %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true]} : memref<4x16xf32, strided<[16, 1], offset: ?>>, vector<16xf32>
        %s = arith.addf %v, %acc : vector<16xf32>
        scf.yield %s : vector<16xf32>
      }
      vector.transfer_write %sum, %out[%r, %n] {in_bounds = [true]} : vector<16xf32>, memref<4x64xf32>
    }
  }
  return
}

// -----

// Shares that do not divide the panel: 12 lines over 8 iterations (4 row
// tiles x 2 steps of 6 rows), 2 lines each from line 12g / 8. The last
// iteration's (g = 7) are lines 10 and 11, the panel's last: in range
// without a clamp.
// CHECK-DAG:   #[[LINE0:.+]] = affine_map<(d0, d1, d2) -> (((d1 * 2 + d2 floordiv 6) * 12) floordiv 8)>
// CHECK-DAG:   #[[LINE1:.+]] = affine_map<(d0, d1, d2) -> (((d1 * 2 + d2 floordiv 6) * 12) floordiv 8 + 1)>
// CHECK-LABEL: func.func @uneven_shares
// CHECK:         scf.for %[[N:.+]] = %c0 to %c64 step %c16
// CHECK:           scf.for %[[R:.+]] = %c0 to %c4 step %c1
// CHECK:             scf.for %[[K:.+]] = %c0 to %c12 step %c6
// CHECK-NEXT:          affine.min
// CHECK-NEXT:          affine.apply #[[LINE0]](%[[N]], %[[R]], %[[K]])
// CHECK-NEXT:          affine.apply
// CHECK-NEXT:          memref.prefetch
// CHECK-NEXT:          affine.apply #[[LINE1]](%[[N]], %[[R]], %[[K]])
// CHECK-NEXT:          affine.apply
// CHECK-NEXT:          memref.prefetch
// CHECK-NEXT:          vector.transfer_read
func.func @uneven_shares(%w: memref<4x12x16xf32> {dispatchlab.weight_panels}, %out: memref<4x64xf32>) attributes {dispatchlab.dispatch} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %n = %c0 to %c64 step %c16 {
    scf.for %r = %c0 to %c4 step %c1 {
      %p = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%n)
      %panel = memref.subview %w[%p, 0, 0] [1, 12, 16] [1, 1, 1] : memref<4x12x16xf32> to memref<12x16xf32, strided<[16, 1], offset: ?>>
      %sum = scf.for %k = %c0 to %c12 step %c6 iter_args(%acc = %zero) -> (vector<16xf32>) {
        %v = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<12x16xf32, strided<[16, 1], offset: ?>>, vector<6x16xf32>
        %s = vector.multi_reduction <add>, %v, %acc [0] : vector<6x16xf32> to vector<16xf32>
        scf.yield %s : vector<16xf32>
      }
      vector.transfer_write %sum, %out[%r, %n] {in_bounds = [true]} : vector<16xf32>, memref<4x64xf32>
    }
  }
  return
}
