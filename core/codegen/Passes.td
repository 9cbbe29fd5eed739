//===- Passes.td - dispatchlab codegen passes ---------------*- tablegen -*-===//

#ifndef DISPATCHLAB_CORE_CODEGEN_PASSES_TD
#define DISPATCHLAB_CORE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def PlaceEncodingPacksPass
    : Pass<"dispatchlab-place-encoding-packs", "mlir::ModuleOp"> {
  let summary = "Pack weights in the initializer, and give every other pack "
                "between dispatches a dispatch of its own";
  let description = [{
    Runs after dispatchlab-materialize-encoding-for-host. A linalg.pack in
    the host function is a set_encoding HoistEncodingOps moved out of a
    dispatch and FuseEncodingOpsIntoDispatchRegions did not fuse. IREE
    const-evaluates one of a weight into a global (HoistIntoGlobals) and
    gives any other a dispatch of its own (Stream's encoding dispatches).
    Here a pack of a weight argument moves into the host's initializer
    (ParameterInitializer.h), which the host then reads, and any other pack
    is wrapped in a dispatch.region with its destination and padding value.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::dispatchlab::dispatch::DispatchDialect"];
}

def TileDataTiledDispatchesPass
    : Pass<"dispatchlab-tile-data-tiled-dispatches", "mlir::func::FuncOp"> {
  let summary = "Tile each dispatch computing on packed layouts in whole "
                "inner tiles";
  let description = [{
    Mirrors IREE's CPU tiling of data-tiled dispatches (Mmt4dTilingExpert;
    the pack and unpack tile sizes of KernelDispatch.cpp). Runs on dispatch
    functions holding a linalg.pack, linalg.unpack or (batch_)mmt4d, which
    dispatchlab-tile-and-fuse-dispatches leaves alone. The op computing the
    dispatch's results is tiled in one scf.forall with its producers fused:
    an unpack, or an elementwise op over an unpack's result through a
    permutation, takes one inner tile (M0 x N0) per step in the dims the
    unpack tiles and 1 in the others, so that the fused mmt4d computes one
    1x1 tile of its outer dims per step and nothing twice; a pack takes 1
    in its outer dims but the innermost, which takes the largest divisor of
    its extent up to `vector-width`. A dim its tile does not divide is split
    into whole tiles and the rest, each statically shaped. Then each mmt4d's
    K1 loop is tiled by the largest divisor up to `reduction-tile-size`.
    A dispatch of another shape (several result ops) stays untiled.
  }];
  let options = [
    Option<"reductionTileSize", "reduction-tile-size", "int64_t", "16",
           "Target tile size of an mmt4d's K1 loop">,
    Option<"vectorWidth", "vector-width", "int64_t", "16",
           "f32 lanes of the host's vectors: a pack's inner tiles per step">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DecomposePackUnpackPass
    : Pass<"dispatchlab-decompose-pack-unpack", "mlir::func::FuncOp"> {
  let summary = "Rewrite every linalg.pack and linalg.unpack left into "
                "pad, reshape, transpose and slice ops";
  let description = [{
    Upstream's lowerPack and lowerUnPack, for the packs and unpacks that
    no tile loop vectorized: the initializer's weight packs, tiles with a
    dynamic boundary, and everything under --codegen=loops. A pack becomes
    tensor.pad, tensor.expand_shape and linalg.transpose; an unpack
    linalg.transpose, tensor.collapse_shape and tensor.extract_slice. Those
    bufferize and lower to loops like any other op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def OutlineDispatchRegionsPass
    : Pass<"dispatchlab-outline-dispatch-regions", "mlir::ModuleOp"> {
  let summary = "Outline each dispatch.region into its own func.func";
  let description = [{
    Every `dispatch.region` becomes a private `func.func` named like the
    reports name it (`<function>_dispatch_<n>`): the values it captures from
    above become arguments, the values its `dispatch.return` yields become
    results. The region is replaced by a `func.call`, so the host function
    calls the dispatches in program order and each one can be compiled on
    its own.
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def DropPaddingTapsPass
    : Pass<"dispatchlab-drop-padding-taps", "mlir::func::FuncOp"> {
  let summary = "Drop the convolution taps that read only a pad's zeros, "
                "and the padding no tap reads";
  let description = [{
    Runs on dispatch-formed IR, before FillPaddingBorders. A zero pad (a
    `linalg.fill` of zero in the host, one static `tensor.insert_slice` of
    the interior into it in a dispatch that returns it) whose every reader
    is a `linalg.generic` that only adds products of it to its init (a
    convolution) indexed by `s * output + t * window` or plain dims: a
    window tap that reads only padding for every output is dropped (the
    filter sliced along that dim, the input shifted), and the pad shrinks
    to the hull of its interior and what the remaining taps read. Nothing
    changes unless some reader drops a tap. deeplabv3's ASPP convolutions
    with dilation 24 and 36 on a 17x17 map keep their centre tap and read
    an unpadded 17x17 copy (the 65x65 and 89x89 pads were 45 MB of zeros
    per call). A filter the host passes in is sliced in the host, a view of
    the parameter the initializer lays out (HoistParameterPacking).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def FillPaddingBordersPass
    : Pass<"dispatchlab-fill-padding-borders", "mlir::func::FuncOp"> {
  let summary = "Fill only the border of a padded tensor a dispatch inserts "
                "its interior into";
  let description = [{
    Runs on dispatch-formed IR, before outlining. A `linalg.fill` in the host
    whose only use is the destination of a static, unit-stride
    `tensor.insert_slice` in a dispatch (a `tensor.pad` that
    TensorPadToTensorInsertSlice made a fill and an insert, after IREE's pass
    of that name)
    becomes fills of the slabs around that slice, inserted into a new
    tensor: the dispatch writes the interior, so filling it first only costs
    a pass over memory (EfficientNet-B0: 16.6 MB per call). IREE splats the
    whole tensor (a HAL fill) before the dispatch; the values are the same.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def SkipPaddingTapsPass
    : Pass<"dispatchlab-skip-padding-taps", "mlir::func::FuncOp"> {
  let summary = "Skip the reduction loops of a tile that read only zero "
                "padding";
  let description = [{
    Runs on tiled dispatches, before vectorization. A `linalg.generic` that
    only adds products of one input to its init (a convolution or matmul
    tile), where that input is a static slice of a dispatch argument zero
    outside a box (`dispatchlab.zero_padded_interior`, recorded by
    FillPaddingBorders and OutlineDispatchRegions): the outermost `scf.for`
    loops around it that only carry its accumulator and over which the
    slice does not move (a tile's channel loop, not its filter-tap loops)
    get no iterations when the slice misses the box, by a `select` on the
    upper bound: a zero input adds nothing. Only an argument at least half
    of which is padding gets the test: the runtime trip count costs every
    tile, more than a one-pixel border saves. deeplabv3's ASPP convolutions
    (dilations 12, 24, 36 on a 17x17 map) read padding with 8 of their 9
    taps almost everywhere.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
}

def DeduplicateDispatchesPass
    : Pass<"dispatchlab-deduplicate-dispatches", "mlir::ModuleOp"> {
  let summary = "Call one function for dispatches with identical bodies";
  let description = [{
    Dispatch functions whose type and body print the same (up to SSA names
    and locations) are one executable, as IREE's executable deduplication
    makes them: calls to the later ones are redirected to the first and the
    copies erased, so each distinct dispatch is lowered and JIT-compiled
    once (BERT: 249 dispatches, 19 executables).
  }];
}

def KeepDispatchesOutOfLinePass
    : Pass<"dispatchlab-keep-dispatches-out-of-line", "mlir::ModuleOp"> {
  let summary = "Mark every dispatch function noinline for LLVM";
  let description = [{
    Runs on the LLVM dialect, last: each `llvm.func` that was a dispatch
    function (it keeps OutlineDispatchRegions' unit attribute) gets
    `no_inline`. In IREE a dispatch is its own HAL executable, so the host
    code calls it and never inlines it; without the mark, LLVM's -O3
    inliner folds most dispatches into the host function (MiniLM: 727
    dispatch calls before -O3, 179 after), and instruction selection on
    that one huge function is most of the JIT's time. The dispatches keep
    their own bodies, so what is timed is the code each dispatch compiles
    to, called across the boundary IREE has.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def SerializeSmallTileLoopsPass
    : Pass<"dispatchlab-serialize-small-tile-loops", "mlir::func::FuncOp"> {
  let summary = "Keep the tile loops of a dispatch with little work on the "
                "calling thread";
  let description = [{
    Runs on dispatch functions when `run --threads N` spreads tiles over
    threads, before `scf-forall-to-parallel`. A dispatch whose FLOPs are
    below `max-flops` and whose bytes read and written are below `max-bytes`
    (the `dispatchlab.flops` and `dispatchlab.bytes` attributes
    OutlineDispatchRegions sets, counted as the compile stats count them)
    has its `scf.forall` loops turned into sequential `scf.for` nests, so
    its tiles run on the thread that called it. Each top-level loop counts
    for its share of the points the loops cover: the remainder of a split
    (TileAndFuseDispatches' getSplitPoint) can stay on the calling thread
    while the head is spread. IREE's CPU backend likewise
    gives each workgroup a minimum workload (KernelDispatch's
    kMinimumWorkload), so that runtime overhead does not dominate. The
    defaults come from one- and two-thread profiles of four zoo models on a
    2-vCPU Intel Xeon, the byte threshold lowered once tiles ran in
    per-thread blocks, and the FLOP threshold from 8 M to 4 M on a 2-vCPU
    AMD EPYC, where MobileNetV2's 4.8 MFLOP 1x1 projection took 25 us
    serialized and 15 us spread (docs/codegen.md, Threads).
  }];
  let options = [
    Option<"maxFlops", "max-flops", "int64_t", "4000000",
           "FLOPs below which (with max-bytes) a dispatch's tiles run on "
           "the calling thread">,
    Option<"maxBytes", "max-bytes", "int64_t", "262144",
           "Bytes read and written below which (with max-flops) a "
           "dispatch's tiles run on the calling thread">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def FreeBuffersAfterLastUsePass
    : Pass<"dispatchlab-free-buffers-after-last-use", "mlir::func::FuncOp"> {
  let summary = "Move each buffer's dealloc to right after its last use";
  let description = [{
    Runs after `buffer-deallocation-pipeline`, which frees a block's buffers
    at the end of the block. In the host function that kept every buffer
    between dispatches alive until the model returned: BERT-base wrote 91
    MB of distinct buffers per call, each dispatch its results into memory
    no cache held. Here a `memref.dealloc` of a `memref.alloc` of the same
    block moves to right after the last op of the block that uses the
    buffer or a view of it (a use nested in an op counts at that op), so
    the heap hands the memory, still cached, to a later buffer. IREE's
    stream allocation likewise packs transient buffers by lifetime
    (ScheduleAllocation's `stream.resource.pack`), reusing their memory
    within one invocation. A buffer that a return or a non-view op with
    memref results could carry on, or that is used outside the block,
    keeps its dealloc where it is.
  }];
}

def LinearizeTileLoopsPass
    : Pass<"dispatchlab-linearize-tile-loops", "mlir::func::FuncOp"> {
  let summary = "Collapse each multi-dimensional scf.parallel into one loop";
  let description = [{
    Runs before `async-parallel-for` when `run --threads N` spreads a
    dispatch's tiles over threads. The tiles of an n-D scf.parallel get one
    linear index (innermost dim fastest, so consecutive tiles of a block
    still share a matmul's weight column panel), and the tiles are then cut
    into blocks along that one dim.

    Upstream `async-parallel-for` (LLVM 22) miscounts blocks for an n-D loop
    whose inner trip counts are static: it rounds the block size up to a
    multiple of the inner trip count after deriving the block count from the
    unrounded size, so trailing blocks start past the end, and wrapping
    their start index around makes each of them recompute the whole
    iteration space. A 128x768x768 matmul on 2 threads did five times its
    work (1.35 ms on one thread, 3.2 ms on two). A 1-D loop has no inner
    trip count to align to.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def EliminateEmptyTensorsPass
    : Pass<"dispatchlab-eliminate-empty-tensors", "mlir::ModuleOp"> {
  let summary = "Upstream's eliminate-empty-tensors, repeated through "
                "nested insertions";
  let description = [{
    Runs before bufferization, in place of upstream's
    `eliminate-empty-tensors`. That replaces a `tensor.empty` that a chain
    of destination-passing ops writes and an `insert_slice` inserts by a
    slice of the insertion's destination, visiting insertions in program
    order and replacing only the uses on the chain. A split dispatch
    (TileAndFuseDispatches' getSplitPoint) inserts its head's tile loop
    into a whole-result empty that is itself inserted into the padded
    tensor the dispatch writes, or into an outer split's head: one run
    points the head's loop at a slice of the inner empty and replaces only
    that empty's use as a destination, so the head bufferized into a
    temporary copied into place (posenet's 129x128x64 head: 4.2 MB per
    call; 13 of its 25 split dispatches copied). Here each run is followed
    by upstream's FoldTensorEmpty patterns (a slice of an empty is an empty
    of the slice's shape), and the two repeat, one level of nesting per
    round, until the patterns change nothing.
  }];
  // The bufferization interfaces the analysis reads come with these.
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::tensor::TensorDialect"];
}

def PromoteTileTemporariesToStackPass
    : Pass<"dispatchlab-promote-tile-temporaries-to-stack",
           "mlir::func::FuncOp"> {
  let summary = "Put a tile's small temporary buffers on the stack";
  let description = [{
    Runs on dispatch functions after bufferization, once the tile loops are
    loops (`scf.for`, or `scf.parallel` with `--threads` above 1), before
    `buffer-deallocation-pipeline`. A `memref.alloc` of a static shape of at
    most `max-bytes` in a loop body, whose uses (through views) all stay in
    that body, becomes a `memref.alloca`: the loop body is an automatic
    allocation scope, and `buffer-loop-hoisting` in the lowering later gives
    the buffer one place in the function's frame. Such a buffer holds an
    intermediate of one tile, e.g. a depthwise convolution's 8x32 result
    that its fused bias and clamp read back; as a heap buffer each tile paid
    a malloc and a free, on two threads from two malloc arenas. IREE's CPU
    backend likewise allocates dispatch-local buffers on the stack (its
    bufferization allocation function makes `memref.alloca`s) and bounds
    them by `--iree-llvmcpu-stack-allocation-limit` (32 KiB), the default
    here. Upstream's `promote-buffers-to-stack` does
    not fit: it also promotes buffers passed to calls.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", "32768",
           "Largest buffer put on the stack">
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def PrefetchWeightPanelsPass
    : Pass<"dispatchlab-prefetch-weight-panels", "mlir::func::FuncOp"> {
  let summary = "Prefetch the next weight panel into L2 while tiles read "
                "the current one";
  let description = [{
    Runs on dispatch functions after bufferization, once the tile loops are
    loops. A dispatch argument PackWeightPanels laid out in column panels
    (`dispatchlab.weight_panels`, [panels, d0, ..., T]) is read panel by
    panel: a tile loop's induction variable, divided by a multiple of its
    step and maybe taken modulo a constant (the linearized tiles of two
    threads: tile / rows, or (tile / columns) mod panels), picks the panel,
    and loops inside it read the panel with vector reads. The innermost
    such loop gets `memref.prefetch`es (read, locality 2: into
    L2) of the next panel, its L lines spread evenly over the G iterations
    that read one panel: iteration g prefetches lines [g * L / G, g * L / G
    + ceil(L / G)). Where G exceeds L, the prefetches go to the outer read
    loop at which the iterations no longer outnumber the lines, so none
    repeats the line of the one before. A panel those loops read only once
    (a matrix-vector product's) is a stream the hardware prefetchers
    follow, and is left alone.

    A panel otherwise comes from DRAM on its first use, while its other
    tiles compute from cache. ResNet-50's stage-4 1x1 convolutions (4 MB of
    weights, 256 KB panels read by 7 row tiles each) took 0.67-0.72 ms in
    the model, 0.51-0.56 ms with the prefetches, 0.48 ms alone with their
    weights in L3 (docs/codegen.md, "The next panel, prefetched"). IREE's
    mmt4d ukernel also prefetches the panels it is about to read
    (`IREE_UK_PREFETCH_RO`, IREE #13332).
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def BlockTileLoopsPerThreadPass
    : Pass<"dispatchlab-block-tile-loops-per-thread", "mlir::func::FuncOp"> {
  let summary = "Cut each linear tile loop into one contiguous block of "
                "tiles per thread, which other threads help with once "
                "done with theirs";
  let description = [{
    Runs after `dispatchlab-linearize-tile-loops` when `run --threads N`
    spreads a dispatch's tiles over threads: the 1-D `scf.parallel` over
    the tiles becomes an `scf.parallel` over `threads` blocks of
    contiguous tiles (the last block may be shorter or empty), each with
    a counter of its next tile. Thread t claims chunks of 1/32 of a block
    from block t's counter (`memref.atomic_rmw`) and runs them in order;
    when its block is done it claims what is left of the others'.
    `async-parallel-for` then makes one task per thread: the calling
    thread starts on block 0, the pool's workers on the others.

    Consecutive dispatches of a convolution network tile the same output
    rows in the same order, so a thread then mostly reads what it wrote
    itself in the dispatch before, from its own core's cache, where
    async-parallel-for's own split (up to 8 blocks per thread, taken by
    whichever thread is free) moved half of each dispatch's input between
    the cores. MobileNetV2 on 2 threads: 5.15-5.32 -> 4.45-4.55 ms. Fixed
    blocks alone (OpenMP's static schedule) made a dispatch wait for its
    slower thread: on a VM whose vCPUs slow down at times, a 1024^3 matmul
    on 2 threads took 8.7-9.4 ms (medians of 200 calls) against its best
    of 5.9-6.6.
    Claiming the rest of a late thread's block (like IREE's task executor,
    whose workers steal) took BERT-base on 2 threads from 124-127 to 98-100
    ms (docs/codegen.md, Threads).
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "1",
           "Threads the tiles run on; below 2 the pass does nothing">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def InstrumentDispatchCallsPass
    : Pass<"dispatchlab-instrument-dispatch-calls", "mlir::ModuleOp"> {
  let summary = "Call a begin and an end hook around every dispatch call";
  let description = [{
    For `run --profile-dispatches`: every `func.call` to a dispatch function
    (one OutlineDispatchRegions created) in a function that is no dispatch
    is wrapped in calls to the external `@dispatchlab_dispatch_begin(i64)`
    and `@dispatchlab_dispatch_end(i64)`, whose argument is the call site's
    index in program order (counted over the module). The module gets a
    `dispatchlab.dispatch_calls` array naming each index's callee. Run it
    before dispatchlab-deduplicate-dispatches: the index and name stay per
    call site after calls of identical dispatches share one function.
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::arith::ArithDialect"];
}

def WidenLowPrecisionFloatsPass
    : Pass<"dispatchlab-widen-low-precision-floats", "mlir::ModuleOp"> {
  let summary = "Compute in f32 what the model computes in f16 or bf16";
  let description = [{
    For the reference that `dispatchlab run` checks outputs against: every
    f16 and bf16 scalar, tensor and function signature becomes f32,
    constants are converted exactly, and the casts between f32 and the
    narrow type that become no-ops are dropped. The reference then rounds
    once per f32 operation instead of once per f16 operation, so a
    low-precision variant is compared with a more precise result rather
    than with another order of the same f16 roundings (which differ by a
    few f16 ulps between hosts with and without native f16 arithmetic).
    A bitcast of a narrow float cannot be widened and fails the pass.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TransposeWeightsPass
    : Pass<"dispatchlab-transpose-weights", "mlir::func::FuncOp"> {
  let summary = "Read contraction weights with the output's innermost dim "
                "innermost";
  let description = [{
    In a dispatch function, an input of a contraction or convolution generic
    that holds the output's innermost dim (n) but has a reduction dim
    innermost (a PyTorch filter [f, kh, kw, c], a transposed matmul rhs) is
    replaced by a `linalg.transpose` of it moving n innermost, and the op's
    indexing map is permuted to match. The register tiles of
    TileAndFuseDispatches then read rows of contiguous n for their outer
    products (IREE packs matmul operands for its tiles for the same
    reason); HoistParameterPacking moves the transposes of weights out to
    an initializer, and TileAndFuseDispatches tiles those left.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def HoistParameterPackingPass
    : Pass<"dispatchlab-hoist-parameter-packing", "mlir::ModuleOp"> {
  let summary = "Move weight transposes out of dispatches into an initializer";
  let description = [{
    A `linalg.transpose` inside a dispatch whose input is a weight of the
    model (a host argument tagged `dispatchlab.parameter` or
    `dispatchlab.parameter_result`) moves to a public function
    `@<host>_initializer`, taking the weights and returning their packed
    layouts; the host gets one argument per packed layout (tagged
    `dispatchlab.packed` with the initializer result), the dispatch reads it
    instead of transposing, and a weight argument the dispatch no longer
    reads is dropped. The runner calls the initializer once per prepared
    call, so timed calls do not pack. This mirrors IREE's const-expr
    hoisting of weight-only computations (data-tiling's packs of weights
    among them) into initializers. One packed layout per weight and
    permutation, however many dispatches read it.
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def PackWeightPanelsPass
    : Pass<"dispatchlab-pack-weight-panels", "mlir::ModuleOp"> {
  let summary = "Pack weights into the column panels their tiles read";
  let description = [{
    After TileAndFuseDispatches: a dispatch argument holding a weight (a
    parameter of the host, or a packed layout of one) whose every read is a
    tile loop's column panel (whole in every dim but the last, T wide there
    at the loop's induction variable) is packed by the initializer from
    [d0, ..., N] to [ceil(N/T), d0, ..., T]; each tile reads its panel as
    one contiguous block. The parts of an op TileAndFuseDispatches split
    into full tiles and a remainder narrower than T count as well: the last
    panel is zero-padded to T and the remainder reads its first columns.
    This mirrors IREE's data tiling, which packs a
    matmul's weights into the tiles its kernels read and hoists the pack
    into the initializer. A layout the initializer already computes is
    packed further only if every read of it is such a panel read with the
    same T.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def DecomposeAggregatedOpsPass
    : Pass<"dispatchlab-decompose-aggregated-ops", "mlir::func::FuncOp"> {
  let summary = "Decompose linalg.softmax into the generics it stands for";
  let description = [{
    Runs right after outlining, so that tiling, vectorization and the
    scalar loops only meet structured ops: every op implementing upstream's
    AggregatedOpInterface (`linalg.softmax`, which pipeline=iree raises) is
    replaced by what its `decomposeOperation` builds (a max reduction, the
    shifted exp, a sum reduction and the division), as IREE's CPU codegen
    decomposes it before tiling.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def FactorRepeatedGathersPass
    : Pass<"dispatchlab-factor-repeated-gathers", "mlir::func::FuncOp"> {
  let summary = "Gather the source rows a generic reads again and again once, "
                "into a table it reads rows from";
  let description = [{
    A parallel generic of a dispatch extracting from a tensor at a column
    computed from its innermost loop (not that loop's own index) gathers
    every element it reads. When one of its other loops indexes a source
    dim of at most half its extent, through a value of that loop alone (an
    upsampling resize: 257 output rows read 17 source rows), each gathered
    source row is gathered again for every output row mapping to it. The
    extract then reads a table instead: a generic over the loops the other
    indices depend on, with the source dim in that loop's place, holding
    the extract at each source row (the indices recomputed in its body),
    read at the row index the extract used. Extracts differing only in that
    row index share a table. For a bilinear resize that is the separable
    form (gather each source row's columns, then interpolate rows), found
    from the indices alone. Arithmetic is unchanged: the generic reads the
    same elements. Not an IREE pass: IREE's CPU pipeline vectorizes such
    extracts as gathers.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TileAndFuseDispatchesPass
    : Pass<"dispatchlab-tile-and-fuse-dispatches", "mlir::func::FuncOp"> {
  let summary = "Tile each dispatch's last op and fuse its producers into "
                "the tile loops";
  let description = [{
    Runs on the functions OutlineDispatchRegions created, following IREE's
    CPU strategy for matmul and convolution roots. The op producing the
    dispatch's results (or the value a result inserts into a captured tensor)
    is tiled along its parallel loops (the innermost two get `tile-sizes`, by
    default 8 x 32, the register tile of an AVX-512 FMA kernel: 8 rows x 2
    vectors of 16 f32; outer ones 1) with one scf.forall over the independent
    tiles (what `run --threads` spreads over threads; in a dispatch that
    reduces, the innermost dim's tiles outside the next one's, so a matmul
    reuses one weight column panel for every row tile), and every producer inside the dispatch (matmul,
    convolution, fill, elementwise ops) is fused into it, so intermediate
    values exist one tile at a time: a fused matmul + epilogue never
    materializes the full matmul result (iree-org/iree#8303). Reduction loops
    of the tiled ops are then tiled by `reduction-tile-size`, except a
    convolution's filter window dims, tiled to 1 so that each step is a
    contraction over channels (IREE decomposes 2-D convolutions into 1-D ones
    the same way). The weight transposes TransposeWeights left in the dispatch
    (those of model inputs; weights go to the initializer) stay outside the
    tile loops and are tiled in square blocks of `vector-width` of their own.
    A tile size is the largest divisor of the loop's extent not above the
    target (in the innermost dim, a multiple of `vector-width` if one divides
    it), so every tile is full and statically shaped (vectorizable without
    masks); a long extent with no divisor near the target (under half of it)
    is split instead into target-sized tiles and a remainder, each part with
    its producers restricted to its slice. A dispatch whose results come from
    several ops (aggressive fusion returns a fused producer too) is tiled the
    same way from its last op: a returned producer fused into the tiles writes
    them from the tile loop as an extra shared output (MLIR's
    yield-replacement option of tile and fuse, as IREE yields a fused producer
    used outside its root), fused into a reduction's loop as well so that it
    is vectorized a reduction step at a time (BERT's LayerNorm and softmax
    dispatches); a plain reduction root (a sum or max) there takes tiles of 8
    rows and adds each 16-wide step into a partial result reduced across once
    after the loop (IREE's CPU reduction strategy). In a single-result
    dispatch a plain reduction's steps add into partial results the same
    way, reading its producers' tiles rather than recomputing a producer
    that another op also reads (a softmax's exp), and an elementwise op
    left wider than a register tile (the product of `tile-sizes`) in a tile
    goes `vector-width` columns at a time (IREE's vector-level tiling of
    every op). A reduction whose inputs are read innermost along a parallel
    loop (a global pool over channels-last pixels) takes tiles of 8 pixels
    and up to 512 channels and steps through its rows in memory order, 2 x
    `vector-width` channels at a time, adding whole vectors into the tile's
    sums. An elementwise op of inputs read from memory whose output's
    innermost dim comes from another loop than its input's (IREE's CPU tile
    sizes give each operand's innermost dim a vector) takes, if that dim is
    narrower than a vector (an NCHW image's 3 channels interleaved into
    NHWC), tiles of all the planes by `vector-width` along its input's
    innermost dim, 1 elsewhere; if both dims are multiples of
    `vector-width` (BERT's key transpose), square blocks of `vector-width`
    along both, 1 elsewhere. One read through a
    broadcast, window or padding, whose tiles would overlap, gets a tile loop
    of its own instead. Results from sibling ops (consumers of shared
    producers, as --horizontal-contractions forms) get one tile loop each,
    after any shared producer with reduction loops (a matmul) got its own:
    computed once, while shared elementwise producers are recomputed per tile
    (IREE fuses a producer into several consumers only if it is elementwise).
    An elementwise op whose body extracts elements (a resize, an embedding
    lookup) and into which no contraction is fused takes one row by 2 x
    `vector-width` per tile, so that indices computed from its outer loops
    hold for the whole tile. Ops read only through extracts (the tables of
    dispatchlab-factor-repeated-gathers) are tiled first, each in a tile
    loop of its own.
    A dispatch copying an argument into a slice of another (a pad's
    interior) takes one scf.forall over blocks of up to 8 along the copied
    tensor's outermost non-unit dim. Dispatches with a result from another
    non-Linalg op or with dynamic shapes are left untiled.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Target tile sizes of the innermost two parallel loops">,
    Option<"reductionTileSize", "reduction-tile-size", "int64_t", "16",
           "Target tile size of reduction loops">,
    Option<"vectorWidth", "vector-width", "int64_t", "16",
           "f32 lanes of the target's vectors: the innermost parallel tile "
           "is a multiple of it, weight transposes go in square blocks of it">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def DecomposeDepthwiseConvsPass
    : Pass<"dispatchlab-decompose-depthwise-convs", "mlir::func::FuncOp"> {
  let summary = "Rewrite depthwise convolution rows as "
                "linalg.depthwise_conv_1d_nwc_wc";
  let description = [{
    Mirrors IREE's DecomposeConvolutionToLowerDimOps in its CPU convolution
    pipeline (CPUConvTileAndDecomposeExpert). Runs on dispatch functions
    after dispatchlab-tile-and-fuse-dispatches, which tiles a depthwise
    convolution generic (input [oh * sh + kh * dh, ow * sw + kw * dw, c],
    filter [kh, kw, c], output [oh, ow, c], `out + input * filter` in one
    float type) to one output row, a few columns and a vector of channels,
    and its window dims to 1. Each such tile, with unit output height and
    unit filter height, becomes a linalg.depthwise_conv_1d_nwc_wc whose
    batch dim is the row, keeping the W stride and dilation; the filter
    drops its unit height through a rank-reducing slice. Upstream's
    vectorizer (dispatchlab-vectorize-dispatches) turns that op into one
    FMA per output column and filter tap on vectors of channels. Other ops
    are left alone.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def VectorizeDispatchesPass
    : Pass<"dispatchlab-vectorize-dispatches", "mlir::func::FuncOp"> {
  let summary = "Vectorize the statically shaped Linalg ops of dispatches";
  let description = [{
    Every Linalg op in a dispatch function whose iteration space is static
    and at most `max-vector-elements` large becomes vector ops (upstream
    linalg::vectorize, contractions as vector.contract, which lowers to
    FMAs); others stay as they are and become loops later. Unit loops are
    dropped first and an input read at `d * stride` becomes a strided slice
    read at `d`, so a convolution tile whose window dims were tiled to 1 is
    a plain contraction. Depthwise convolution rows arrive as
    linalg.depthwise_conv_1d_nwc_wc (dispatchlab-decompose-depthwise-convs),
    which the vectorizer turns into FMAs on vectors of channels. Reads at
    computed indices (`tensor.extract` in the body: a resize's neighbours,
    an embedding lookup) become vector loads where the vectorizer proves
    them contiguous and `vector.gather`s otherwise, as IREE's CPU pipeline
    has them (`vectorizeGatherAccesses`); as scalar loops a 1x21x257x257
    bilinear resize took 4.1 ms, 1.9 ms gathered.
  }];
  let options = [
    Option<"maxVectorElements", "max-vector-elements", "int64_t", "4096",
           "Largest iteration space (product of loop extents) vectorized">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def LowerStridedCopiesPass
    : Pass<"dispatchlab-lower-strided-copies", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy between strided buffers into linalg.copy";
  let description = [{
    After bufferization, a `memref.copy` whose source or target is not
    contiguous (a tile written into a transposed layout, a slice copied into
    a padded buffer) becomes a `linalg.copy`, with the trailing dims that
    both lay out contiguously collapsed into one; convert-linalg-to-loops
    then gives loops LLVM vectorizes. finalize-memref-to-llvm would
    otherwise call the runtime's generic `memrefCopy`, which steps through
    the strides one element at a time. Contiguous copies stay memcpys.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
}

def LowerVectorsPass : Pass<"dispatchlab-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "Lower n-D vector ops to what convert-vector-to-llvm takes";
  let description = [{
    Upstream vector lowering patterns, applied to a fixpoint after
    bufferization: contractions to outer products and FMAs, multi-reductions
    to element-wise ops across the parallel dims, transposes and broadcasts to element-wise
    inserts, transfer permutation maps to minor-identity transfers plus
    broadcasts/transposes, transfers of rows no wider than a vector
    register over contiguous memory to one 1-D transfer, and erf, tanh, exp
    and log (f32) to polynomial approximations in vector arithmetic. Reads
    whose every use takes one element become scalar loads (x86 folds them
    into broadcasts from memory), and a sigmoid's 1 / (1 + exp) over f32
    vectors becomes an exponential of -|z|, a reciprocal estimate and a
    reflection (LogisticExpansion.h). convert-vector-to-scf then unrolls the n-D transfers to 1-D
    ones.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", "16",
           "f32 lanes of the target's vectors: at 16, 16x16 transposes use "
           "the AVX-512 shuffle sequence">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // DISPATCHLAB_CORE_CODEGEN_PASSES_TD
