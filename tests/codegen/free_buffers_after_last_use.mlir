// RUN: dispatchlab-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dispatchlab-free-buffers-after-last-use))' | FileCheck %s

// A buffer between two dispatches is freed once the second has read it,
// not when the model returns: the next buffer can reuse its memory.
// CHECK-LABEL: func.func @freed_after_reader
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK-NEXT:    call @producer(%[[A]])
// CHECK-NEXT:    %[[B:.+]] = memref.alloc()
// CHECK-NEXT:    call @consumer(%[[A]], %[[B]])
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    call @consumer(%[[B]], %{{.+}})
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NEXT:    return
func.func private @producer(memref<16xf32>)
func.func private @consumer(memref<16xf32>, memref<16xf32>)
func.func @freed_after_reader(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  call @producer(%a) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  call @consumer(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  call @consumer(%b, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// A view (a reshape) keeps its buffer alive until the view's last use.
// CHECK-LABEL: func.func @view_keeps_alive
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         %[[V:.+]] = memref.collapse_shape %[[A]]
// CHECK-NEXT:    call @producer(%{{.+}})
// CHECK-NEXT:    call @consumer(%[[V]])
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    call @producer(%{{.+}})
func.func private @producer(memref<16xf32>)
func.func private @consumer(memref<16xf32>)
func.func @view_keeps_alive(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  %v = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  call @producer(%v) : (memref<16xf32>) -> ()
  call @consumer(%v) : (memref<16xf32>) -> ()
  call @producer(%out) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<4x4xf32>
  return
}

// -----

// A use nested in a loop counts at the loop.
// CHECK-LABEL: func.func @nested_use
// CHECK:         %[[A:.+]] = memref.alloc()
// CHECK:         scf.for
// CHECK:           memref.load %[[A]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    call @producer(%{{.+}})
func.func private @producer(memref<16xf32>)
func.func @nested_use(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16xf32>
  call @producer(%a) : (memref<16xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  call @producer(%out) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// An op other than a view that returns a memref may alias the buffer: the
// dealloc stays where it is.
// CHECK-LABEL: func.func @may_alias
// CHECK:         call @maybe_alias
// CHECK-NEXT:    call @producer
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    return
func.func private @producer(memref<16xf32>)
func.func private @maybe_alias(memref<16xf32>) -> memref<16xf32>
func.func @may_alias(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = call @maybe_alias(%a) : (memref<16xf32>) -> memref<16xf32>
  call @producer(%b) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// A dealloc in another block than its alloc (a conditional free) stays.
// CHECK-LABEL: func.func @other_block
// CHECK:         scf.if
// CHECK-NEXT:      memref.dealloc
func.func private @producer(memref<16xf32>)
func.func @other_block(%c: i1) {
  %a = memref.alloc() : memref<16xf32>
  call @producer(%a) : (memref<16xf32>) -> ()
  call @producer(%a) : (memref<16xf32>) -> ()
  scf.if %c {
    memref.dealloc %a : memref<16xf32>
  }
  return
}
