// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-drop-padding-taps))' | FileCheck %s

// A 1-D convolution, 3 taps with dilation 4, over 4 columns padded by 4 on
// each side: the outer taps read padding only. The filter keeps its centre
// tap, sliced in the host; the pad shrinks to its interior (an insert at
// offset 0 into a 4x4 fill), which the convolution reads whole.
// CHECK-LABEL: func.func @centre_tap
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[W:[a-z0-9]+]]: tensor<3x4x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x4xf32>)
// CHECK:         %[[PAD:.+]] = dispatch.region -> (tensor<4x4xf32>)
// CHECK:           tensor.insert_slice %[[X]] into %[[FILL]][0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x4xf32>
// CHECK:         %[[TAP:.+]] = tensor.extract_slice %[[W]][1, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<3x4x8xf32> to tensor<1x4x8xf32>
// CHECK:         dispatch.region
// CHECK:           linalg.generic {{.+}} ins(%[[PAD]], %[[TAP]] : tensor<4x4xf32>, tensor<1x4x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 4, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output = affine_map<(d0, d1) -> (d0, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @centre_tap(%x: tensor<4x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x4xf32>) -> tensor<12x4xf32>
  %pad = dispatch.region -> (tensor<12x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[4, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<12x4xf32>
    dispatch.return %inserted : tensor<12x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<12x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  return %conv : tensor<4x8xf32>
}

// -----

// Padded by 6 before the interior and not after: only the first tap reads
// padding only. The filter keeps taps 1 and 2; the pad keeps the 3 padding
// columns tap 1 reads, and the convolution reads all 7.
// CHECK-LABEL: func.func @one_side
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[W:[a-z0-9]+]]: tensor<3x4x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<7x4xf32>)
// CHECK:         %[[PAD:.+]] = dispatch.region -> (tensor<7x4xf32>)
// CHECK:           tensor.insert_slice %[[X]] into %[[FILL]][3, 0] [4, 4] [1, 1]
// CHECK:         %[[TAPS:.+]] = tensor.extract_slice %[[W]][1, 0, 0] [2, 4, 8] [1, 1, 1]
// CHECK:         linalg.generic {{.+}} ins(%[[PAD]], %[[TAPS]] : tensor<7x4xf32>, tensor<2x4x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 3, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output = affine_map<(d0, d1) -> (d0, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @one_side(%x: tensor<4x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<10x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<10x4xf32>) -> tensor<10x4xf32>
  %pad = dispatch.region -> (tensor<10x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[6, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<10x4xf32>
    dispatch.return %inserted : tensor<10x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<10x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  return %conv : tensor<4x8xf32>
}

// -----

// Padded by 6 after the interior and not before: the last tap reads
// padding only, and the first reaches the interior from before the window
// of every output. The filter keeps taps 0 and 1; the pad keeps the 3
// padding columns tap 1 reads.
// CHECK-LABEL: func.func @other_side
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[W:[a-z0-9]+]]: tensor<3x4x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<7x4xf32>)
// CHECK:         %[[PAD:.+]] = dispatch.region -> (tensor<7x4xf32>)
// CHECK:           tensor.insert_slice %[[X]] into %[[FILL]][0, 0] [4, 4] [1, 1]
// CHECK:         %[[TAPS:.+]] = tensor.extract_slice %[[W]][0, 0, 0] [2, 4, 8] [1, 1, 1]
// CHECK:         linalg.generic {{.+}} ins(%[[PAD]], %[[TAPS]] : tensor<7x4xf32>, tensor<2x4x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 3, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @other_side(%x: tensor<4x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<10x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<10x4xf32>) -> tensor<10x4xf32>
  %pad = dispatch.region -> (tensor<10x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<10x4xf32>
    dispatch.return %inserted : tensor<10x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<10x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  return %conv : tensor<4x8xf32>
}

// -----

// Padded by one column: every tap reaches the interior for some output,
// so nothing changes.
// CHECK-LABEL: func.func @every_tap_live
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<10x4xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<10x4xf32>, tensor<3x4x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 3, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output = affine_map<(d0, d1) -> (d0, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @every_tap_live(%x: tensor<8x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<10x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<10x4xf32>) -> tensor<10x4xf32>
  %pad = dispatch.region -> (tensor<10x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[1, 0] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<10x4xf32>
    dispatch.return %inserted : tensor<10x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<10x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  return %conv : tensor<4x8xf32>
}

// -----

// The centre-tap convolution again, and a second reader that is no
// convolution (an exp reads the padding): the pad stays whole, and so the
// convolution keeps its taps.
// CHECK-LABEL: func.func @other_reader
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<12x4xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<12x4xf32>, tensor<3x4x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 4, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output = affine_map<(d0, d1) -> (d0, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @other_reader(%x: tensor<4x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<12x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x4xf32>) -> tensor<12x4xf32>
  %pad = dispatch.region -> (tensor<12x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[4, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<12x4xf32>
    dispatch.return %inserted : tensor<12x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<12x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  %exp = dispatch.region -> (tensor<12x4xf32>) {
    %1 = linalg.generic {indexing_maps = [#output, #output], iterator_types = ["parallel", "parallel"]} ins(%pad : tensor<12x4xf32>) outs(%empty : tensor<12x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    } -> tensor<12x4xf32>
    dispatch.return %1 : tensor<12x4xf32>
  }
  return %conv, %exp : tensor<4x8xf32>, tensor<12x4xf32>
}

// -----

// Two readers: the centre-tap convolution and a dilation-1 one whose taps
// all reach the interior and read the whole pad. The pad stays whole; the
// first reads its interior through a slice in its own dispatch (a slice
// passed in would be copied), with its filter's centre tap.
// CHECK-LABEL: func.func @two_readers
// CHECK-SAME:    %[[W:[a-z0-9]+]]: tensor<3x4x8xf32>
// CHECK:         %[[PAD:.+]] = dispatch.region -> (tensor<12x4xf32>)
// CHECK:         %[[TAP:.+]] = tensor.extract_slice %[[W]][1, 0, 0] [1, 4, 8]
// CHECK:         dispatch.region
// CHECK:           %[[INTERIOR:.+]] = tensor.extract_slice %[[PAD]][4, 0] [4, 4] [1, 1]
// CHECK:           linalg.generic {{.+}} ins(%[[INTERIOR]], %[[TAP]] : tensor<4x4xf32>, tensor<1x4x8xf32>)
// CHECK:         dispatch.region
// CHECK:           linalg.generic {{.+}} ins(%[[PAD]], %[[W]] : tensor<12x4xf32>, tensor<3x4x8xf32>)
#dilated = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 4, d3)>
#dense = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d3)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#output4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @two_readers(%x: tensor<4x4xf32>, %w: tensor<3x4x8xf32>, %init: tensor<4x8xf32>, %init10: tensor<10x8xf32>) -> (tensor<4x8xf32>, tensor<10x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x4xf32>) -> tensor<12x4xf32>
  %pad = dispatch.region -> (tensor<12x4xf32>) {
    %inserted = tensor.insert_slice %x into %fill[4, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<12x4xf32>
    dispatch.return %inserted : tensor<12x4xf32>
  }
  %conv = dispatch.region -> (tensor<4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#dilated, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<12x4xf32>, tensor<3x4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    dispatch.return %0 : tensor<4x8xf32>
  }
  %conv10 = dispatch.region -> (tensor<10x8xf32>) {
    %1 = linalg.generic {indexing_maps = [#dense, #filter, #output4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pad, %w : tensor<12x4xf32>, tensor<3x4x8xf32>) outs(%init10 : tensor<10x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<10x8xf32>
    dispatch.return %1 : tensor<10x8xf32>
  }
  return %conv, %conv10 : tensor<4x8xf32>, tensor<10x8xf32>
}

// -----

// One window dim indexes both dims of the padding (a diagonal filter):
// rows keep tap 1 and columns tap 0, so no tap reads the interior in both,
// which trimming each dim on its own would miss. Left alone.
// CHECK-LABEL: func.func @window_dim_twice
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<12x12xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<12x12xf32>, tensor<3x8xf32>)
#input = affine_map<(d0, d1, d2, d3) -> (d0 + d2 * 4, d1 + d2 * 4)>
#filter = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#output = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @window_dim_twice(%x: tensor<4x4xf32>, %w: tensor<3x8xf32>, %init: tensor<4x4x8xf32>) -> tensor<4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x12xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x12xf32>) -> tensor<12x12xf32>
  %pad = dispatch.region -> (tensor<12x12xf32>) {
    %inserted = tensor.insert_slice %x into %fill[4, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<12x12xf32>
    dispatch.return %inserted : tensor<12x12xf32>
  }
  %conv = dispatch.region -> (tensor<4x4x8xf32>) {
    %0 = linalg.generic {indexing_maps = [#input, #filter, #output], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%pad, %w : tensor<12x12xf32>, tensor<3x8xf32>) outs(%init : tensor<4x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x4x8xf32>
    dispatch.return %0 : tensor<4x4x8xf32>
  }
  return %conv : tensor<4x4x8xf32>
}
