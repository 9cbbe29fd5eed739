//===- RecurrentOps.cpp - LSTM and GRU unrolled over the sequence ---------===//
//
// Shapes are static, so a recurrence becomes straight-line code: one batched
// matmul projects the whole input sequence for every direction at once (the
// input weights do not depend on the state), then each time step is a
// recurrent matmul plus the gate elementwise ops. Directions are the batch
// dim of those matmuls: the reverse direction reads the input reversed in
// time, so step t of both directions is one matmul on [dirs, batch, hidden].
// Weight slicing, transposes and bias sums are derived weights.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/OnnxOps.h"

using namespace mlir;

namespace dispatchlab::onnx_import {

namespace {
/// What LSTM and GRU share: shapes, direction, layout and the input
/// projection, plus small builders over [dirs, batch, n] values.
struct Recurrence {
  OnnxNode &node;
  int64_t seq = 0, batch = 0, hidden = 0, dirs = 1;
  /// Gates per direction: 4 for LSTM, 3 for GRU.
  int64_t gates = 0;
  bool reverse = false, batchFirst = false;
  std::optional<double> clip;
  Type elementType;

  explicit Recurrence(OnnxNode &node) : node(node) {}

  LogicalResult parse(int64_t numGates,
                      ArrayRef<llvm::StringRef> defaultActivations);
  /// Sets `hidden` from R and checks W, R, B, the initial states and the
  /// peepholes against it.
  LogicalResult checkWeightShapes(int64_t inputSize);
  Value get(OnnxValue value) { return node.graph.materialize(value, node.loc); }
  /// `value` of type [dirs, batch, H] (layout 0) from an optional initial
  /// state input, zeros when absent.
  Value initialState(unsigned input);
  /// The input sequence times W^T (+ `bias` [dirs, 1, gates*H]) as
  /// [dirs, seq, batch, gates*H], with the reverse direction's time reversed.
  Value projectInput(OnnxValue bias);
  /// Step `t` of the projection: [dirs, batch, gates*H].
  Value stepOf(Value projection, int64_t t);
  /// [dirs, batch, K] x [dirs, K, N].
  Value matmul(Value lhs, Value rhs);
  /// Gate `index` (width `width`*H) of a [dirs, batch, n*H] value.
  Value gate(Value value, int64_t index, int64_t width = 1);
  Value add(Value a, Value b) { return binary<tosa::AddOp>(a, b); }
  Value sub(Value a, Value b) { return binary<tosa::SubOp>(a, b); }
  Value mul(Value a, Value b) { return createTosaMul(node, a, b); }
  Value sigmoid(Value x) {
    return createTosaUnary<tosa::SigmoidOp>(node, clipped(x));
  }
  Value tanh(Value x) {
    return createTosaUnary<tosa::TanhOp>(node, clipped(x));
  }
  /// W's biases (input `B` [dirs, 2*gates*H]) plus, with `withR`, R's, as
  /// [dirs, 1, gates*H]; none when B is absent.
  OnnxValue bias(bool withR);
  /// A weight input [dirs, gates*H, K] transposed to [dirs, K, gates*H].
  OnnxValue transposedWeight(unsigned input) {
    return transposeValue(node, node.getInput(input), {0, 2, 1});
  }
  /// Defines Y, Y_h (and Y_c) from the per-step hidden states.
  void setOutputs(ArrayRef<Value> steps, Value lastCell);

private:
  template <typename TosaOp> Value binary(Value a, Value b) {
    return createTosaBinary<TosaOp>(node, a, b);
  }
  Value clipped(Value x) {
    return clip ? createTosaClamp(node, x, -*clip, *clip) : x;
  }
  /// Y [seq, dirs, batch, H] in time order: step t of the backward
  /// direction is time seq - 1 - t.
  Value toTimeOrder(Value y);
  /// Layout 1 keeps batch first: [seq, dirs, batch, H] -> [batch, seq, dirs,
  /// H] and [dirs, batch, H] -> [batch, dirs, H].
  Value toLayout(Value value, ArrayRef<int64_t> perm) {
    return batchFirst ? createTosaTranspose(node, value, perm) : value;
  }
};
} // namespace

LogicalResult Recurrence::parse(int64_t numGates,
                                ArrayRef<llvm::StringRef> defaultActivations) {
  gates = numGates;
  std::string direction = node.getString("direction", "forward");
  if (direction == "bidirectional")
    dirs = 2;
  else if (direction == "reverse")
    reverse = true;
  else if (direction != "forward")
    return node.fail("unknown direction '" + direction + "'");
  batchFirst = node.getInt("layout", 0) != 0;
  if (const onnx::AttributeProto *activations =
          findAttribute(node.proto, "activations")) {
    for (int i = 0; i < activations->strings_size(); ++i)
      if (activations->strings(i) !=
          defaultActivations[i % defaultActivations.size()])
        return node.fail("only the default activations are supported, got '" +
                         activations->strings(i) + "'");
  }
  if (findAttribute(node.proto, "clip"))
    clip = node.getFloat("clip", 0.0f);

  RankedTensorType xType = node.getInputType(0);
  if (xType.getRank() != 3)
    return node.fail("the input must be 3-D");
  elementType = xType.getElementType();
  seq = xType.getDimSize(batchFirst ? 1 : 0);
  batch = xType.getDimSize(batchFirst ? 0 : 1);
  if (failed(checkWeightShapes(xType.getDimSize(2))))
    return failure();
  // Per-batch lengths would need masking; equal full lengths need nothing.
  if (node.hasInput(4)) {
    FailureOr<SmallVector<int64_t>> lengths =
        node.getConstantInts(4, "sequence_lens");
    if (failed(lengths))
      return failure();
    if (llvm::any_of(*lengths, [&](int64_t n) { return n != seq; }))
      return node.fail("sequence_lens other than the full length " +
                       Twine(seq) + " are not supported");
  }
  return success();
}

LogicalResult Recurrence::checkWeightShapes(int64_t inputSize) {
  ArrayRef<int64_t> r = node.getInputShape(2);
  if (r.size() != 3)
    return node.fail("R has shape " + formatList(r) + ", expected 3 dims");
  hidden = r[2];
  int64_t hiddenSize = node.getInt("hidden_size", hidden);
  auto expect = [&](unsigned input, StringRef name,
                    ArrayRef<int64_t> shape) -> LogicalResult {
    if (!node.hasInput(input) || node.getInputShape(input) == shape)
      return success();
    return node.fail(name + " has shape " +
                     formatList(node.getInputShape(input)) + ", expected " +
                     formatList(shape));
  };
  SmallVector<int64_t> state = {dirs, batch, hidden};
  if (batchFirst)
    std::swap(state[0], state[1]);
  if (hiddenSize != hidden)
    return node.fail("attribute 'hidden_size' is " + Twine(hiddenSize) +
                     " but R has hidden size " + Twine(hidden));
  if (failed(expect(1, "W", {dirs, gates * hidden, inputSize})) ||
      failed(expect(2, "R", {dirs, gates * hidden, hidden})) ||
      failed(expect(3, "B", {dirs, 2 * gates * hidden})) ||
      failed(expect(5, "initial_h", state)))
    return failure();
  if (gates == 4 && (failed(expect(6, "initial_c", state)) ||
                     failed(expect(7, "P", {dirs, 3 * hidden}))))
    return failure();
  return success();
}

Value Recurrence::initialState(unsigned input) {
  if (node.hasInput(input)) {
    OnnxValue state = node.getInput(input);
    if (batchFirst)
      state = transposeValue(node, state, {1, 0, 2});
    return get(state);
  }
  auto type = getTensorType({dirs, batch, hidden}, elementType);
  return tosa::ConstOp::create(
      node.builder, node.loc, type,
      DenseElementsAttr::get(type, node.builder.getZeroAttr(elementType)));
}

Value Recurrence::projectInput(OnnxValue bias) {
  OnnxValue x = node.getInput(0);
  if (batchFirst)
    x = transposeValue(node, x, {1, 0, 2});
  int64_t inputSize = x.type.getDimSize(2);
  // [seq, batch, I] per direction, the backward one reversed in time.
  SmallVector<Value> perDirection;
  if (!reverse)
    perDirection.push_back(get(x));
  if (reverse || dirs == 2)
    perDirection.push_back(get(reverseValue(node, x, {0})));
  for (Value &xs : perDirection)
    xs = createTosaReshape(node, xs, {1, seq * batch, inputSize});
  Value xs = perDirection.front();
  if (dirs == 2)
    xs = tosa::ConcatOp::create(
        node.builder, node.loc,
        getTensorType({2, seq * batch, inputSize}, elementType), perDirection,
        node.builder.getI32IntegerAttr(0));
  Value projection = matmul(xs, get(transposedWeight(1)));
  if (bias.type)
    projection = add(projection, get(bias));
  return createTosaReshape(node, projection,
                           {dirs, seq, batch, gates * hidden});
}

Value Recurrence::stepOf(Value projection, int64_t t) {
  Value step = createTosaSlice(node, projection, {0, t, 0, 0},
                               {dirs, 1, batch, gates * hidden});
  return createTosaReshape(node, step, {dirs, batch, gates * hidden});
}

Value Recurrence::matmul(Value lhs, Value rhs) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  return tosa::MatMulOp::create(
      node.builder, node.loc,
      getTensorType(
          {lhsType.getDimSize(0), lhsType.getDimSize(1), rhsType.getDimSize(2)},
          elementType),
      lhs, rhs);
}

Value Recurrence::gate(Value value, int64_t index, int64_t width) {
  return createTosaSlice(node, value, {0, 0, index * hidden},
                         {dirs, batch, width * hidden});
}

OnnxValue Recurrence::bias(bool withR) {
  if (!node.hasInput(3))
    return {};
  OnnxValue b = node.getInput(3);
  OnnxValue sum = sliceValue(node, b, {0, 0}, {dirs, gates * hidden}, {1, 1});
  if (withR) {
    OnnxValue r = sliceValue(node, b, {0, gates * hidden},
                             {dirs, gates * hidden}, {1, 1});
    if (sum.isParameter() && r.isParameter()) {
      sum = deriveParameter(node, {sum, r}, [&](ArrayRef<Value> weights) {
        return createTosaBinary<tosa::AddOp>(node, weights[0], weights[1]);
      });
    } else {
      Value added = add(get(sum), get(r));
      sum = OnnxValue();
      sum.type = cast<RankedTensorType>(added.getType());
      sum.value = added;
    }
  }
  return reshapeValue(node, sum, {dirs, 1, gates * hidden});
}

Value Recurrence::toTimeOrder(Value y) {
  auto type = cast<RankedTensorType>(y.getType());
  if (reverse)
    return tosa::ReverseOp::create(node.builder, node.loc, type, y,
                                   node.builder.getI32IntegerAttr(0));
  if (dirs == 1)
    return y;
  SmallVector<int64_t> half(type.getShape());
  half[1] = 1;
  Value forward = createTosaSlice(node, y, {0, 0, 0, 0}, half);
  Value backward =
      tosa::ReverseOp::create(node.builder, node.loc, forward.getType(),
                              createTosaSlice(node, y, {0, 1, 0, 0}, half),
                              node.builder.getI32IntegerAttr(0));
  return tosa::ConcatOp::create(node.builder, node.loc, type,
                                ValueRange{forward, backward},
                                node.builder.getI32IntegerAttr(1));
}

void Recurrence::setOutputs(ArrayRef<Value> steps, Value lastCell) {
  if (node.hasOutput(0)) {
    SmallVector<Value> stacked;
    for (Value h : steps)
      stacked.push_back(createTosaReshape(node, h, {1, dirs, batch, hidden}));
    Value y = stacked.front();
    if (stacked.size() > 1)
      y = tosa::ConcatOp::create(
          node.builder, node.loc,
          getTensorType({seq, dirs, batch, hidden}, elementType), stacked,
          node.builder.getI32IntegerAttr(0));
    node.setOutput(0, toLayout(toTimeOrder(y), {2, 0, 1, 3}));
  }
  node.setOutput(1, toLayout(steps.back(), {1, 0, 2}));
  if (lastCell)
    node.setOutput(2, toLayout(lastCell, {1, 0, 2}));
}

// i = sigmoid(x Wi + h Ri + Pi * c + b), o likewise with the new c,
// f = sigmoid(x Wf + h Rf + Pf * c + b), c' = f * c + i * tanh(x Wc + h Rc +
// b), h' = o * tanh(c'); ONNX orders the gates i, o, f, c.
static LogicalResult lowerLstm(OnnxNode &node) {
  Recurrence r(node);
  if (failed(r.parse(4, {"Sigmoid", "Tanh", "Tanh"})))
    return failure();
  if (node.getInt("input_forget", 0))
    return node.fail("input_forget is not supported");
  Value projection = r.projectInput(r.bias(/*withR=*/true));
  Value recurrent = r.get(r.transposedWeight(2));
  std::optional<Value> peepI, peepO, peepF;
  if (node.hasInput(7)) {
    auto peephole = [&](int64_t index) {
      OnnxValue p = node.getInput(7);
      OnnxValue slice = sliceValue(node, p, {0, index * r.hidden},
                                   {r.dirs, r.hidden}, {1, 1});
      return r.get(reshapeValue(node, slice, {r.dirs, 1, r.hidden}));
    };
    peepI = peephole(0);
    peepO = peephole(1);
    peepF = peephole(2);
  }
  Value h = r.initialState(5), c = r.initialState(6);
  SmallVector<Value> steps;
  for (int64_t t = 0; t < r.seq; ++t) {
    Value g = r.add(r.stepOf(projection, t), r.matmul(h, recurrent));
    Value i = r.gate(g, 0), o = r.gate(g, 1), f = r.gate(g, 2);
    if (peepI) {
      i = r.add(i, r.mul(*peepI, c));
      f = r.add(f, r.mul(*peepF, c));
    }
    c = r.add(r.mul(r.sigmoid(f), c),
              r.mul(r.sigmoid(i), r.tanh(r.gate(g, 3))));
    if (peepO)
      o = r.add(o, r.mul(*peepO, c));
    // clip bounds the gates' inputs, not the cell state.
    h = r.mul(r.sigmoid(o), createTosaUnary<tosa::TanhOp>(node, c));
    steps.push_back(h);
  }
  r.setOutputs(steps, c);
  return success();
}

// z = sigmoid(x Wz + h Rz + b), r likewise, n = tanh(x Wn + (r * h) Rn + b)
// or, with linear_before_reset, tanh(x Wn + r * (h Rn + Rbn) + Wbn);
// h' = n + z * (h - n), i.e. (1 - z) * n + z * h. Gates ordered z, r, n.
static LogicalResult lowerGru(OnnxNode &node) {
  Recurrence r(node);
  if (failed(r.parse(3, {"Sigmoid", "Tanh"})))
    return failure();
  bool linearBeforeReset = node.getInt("linear_before_reset", 0);
  // With linear_before_reset, R's bias of the n gate belongs inside the reset
  // product, so the projection takes W's biases only.
  Value projection = r.projectInput(r.bias(/*withR=*/!linearBeforeReset));
  OnnxValue recurrent = r.transposedWeight(2);
  OnnxValue recurrentZr, recurrentN;
  if (!linearBeforeReset) {
    recurrentZr = sliceValue(node, recurrent, {0, 0, 0},
                             {r.dirs, r.hidden, 2 * r.hidden}, {1, 1, 1});
    recurrentN = sliceValue(node, recurrent, {0, 0, 2 * r.hidden},
                            {r.dirs, r.hidden, r.hidden}, {1, 1, 1});
  }
  OnnxValue recurrentBias;
  if (linearBeforeReset && node.hasInput(3)) {
    OnnxValue b = node.getInput(3);
    OnnxValue rb =
        sliceValue(node, b, {0, 3 * r.hidden}, {r.dirs, 3 * r.hidden}, {1, 1});
    recurrentBias = reshapeValue(node, rb, {r.dirs, 1, 3 * r.hidden});
  }
  Value h = r.initialState(5);
  SmallVector<Value> steps;
  for (int64_t t = 0; t < r.seq; ++t) {
    Value x = r.stepOf(projection, t);
    Value zr, n;
    if (linearBeforeReset) {
      Value hr = r.matmul(h, r.get(recurrent));
      if (recurrentBias.type)
        hr = r.add(hr, r.get(recurrentBias));
      zr = r.sigmoid(r.add(r.gate(x, 0, 2), r.gate(hr, 0, 2)));
      Value reset = r.gate(zr, 1);
      n = r.tanh(r.add(r.gate(x, 2), r.mul(reset, r.gate(hr, 2))));
    } else {
      zr = r.sigmoid(r.add(r.gate(x, 0, 2), r.matmul(h, r.get(recurrentZr))));
      Value reset = r.gate(zr, 1);
      n = r.tanh(
          r.add(r.gate(x, 2), r.matmul(r.mul(reset, h), r.get(recurrentN))));
    }
    Value z = r.gate(zr, 0);
    h = r.add(n, r.mul(z, r.sub(h, n)));
    steps.push_back(h);
  }
  r.setOutputs(steps, Value());
  return success();
}

void registerRecurrentOps(OnnxOpTable &table) {
  table["LSTM"] = lowerLstm;
  table["GRU"] = lowerGru;
}

} // namespace dispatchlab::onnx_import
