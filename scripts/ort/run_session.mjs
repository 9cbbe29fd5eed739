// Times one ONNX model under ONNX Runtime's CPU execution provider, for
// scripts/bench_vs_ort.py (a benchmark, not a test).
//
// Usage: node run_session.mjs MODEL.onnx INPUT_DIR OUTPUT_DIR THREADS
//          REPETITIONS WARMUP_SECONDS [PROFILE_PREFIX]
// Reads each graph input from INPUT_DIR/NAME.npy, writes each output to
// OUTPUT_DIR/NAME.npy, prints one JSON object: the median and every sample in
// ms (one session.run each, after the warm-up, timed around the await, so
// the binding's per-call cost is included), the output names in graph order
// and ORT's version. With PROFILE_PREFIX, ORT's own profiler records every
// node of every call (which slows the calls) into PROFILE_PREFIX*.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
const ortVersion = require('onnxruntime-node/package.json').version;

// .npy dtypes the zoo's inputs and outputs use.
const DTYPES = {
  '<f4': ['float32', Float32Array],
  '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array],
  '|b1': ['bool', Uint8Array],
};

function readNpy(path) {
  const bytes = readFileSync(path);
  if (bytes.toString('latin1', 1, 6) !== 'NUMPY')
    throw new Error(`${path}: not a .npy file`);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', headerStart, headerStart + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header))
    throw new Error(`${path}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1]
    .split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  if (!(descr in DTYPES)) throw new Error(`${path}: dtype ${descr} is not supported`);
  const [type, ArrayType] = DTYPES[descr];
  const data = bytes.subarray(headerStart + headerLength);
  // Copy: the data offset need not be aligned for the typed array.
  const copy = new Uint8Array(data.length);
  copy.set(data);
  return new ort.Tensor(type, new ArrayType(copy.buffer), shape);
}

function writeNpy(path, tensor) {
  const entry = Object.entries(DTYPES).find(([, [type]]) => type === tensor.type);
  if (!entry) throw new Error(`output type ${tensor.type} is not supported`);
  const shape = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${entry[0]}', 'fortran_order': False, 'shape': (${shape}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  writeFileSync(path, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  const [model, inputDir, outputDir, threads, repetitions, warmupSeconds,
    profilePrefix] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    ...(profilePrefix ? { enableProfiling: true, profileFilePrefix: profilePrefix } : {}),
  });
  const feeds = {};
  for (const name of session.inputNames) feeds[name] = readNpy(join(inputDir, `${name}.npy`));

  let outputs = await session.run(feeds);
  const warmupEnd = process.hrtime.bigint() + BigInt(Math.round(Number(warmupSeconds) * 1e9));
  while (process.hrtime.bigint() < warmupEnd) outputs = await session.run(feeds);
  const samples = [];
  for (let i = 0; i < Number(repetitions); ++i) {
    const start = process.hrtime.bigint();
    outputs = await session.run(feeds);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  for (const name of session.outputNames) writeNpy(join(outputDir, `${name}.npy`), outputs[name]);
  if (profilePrefix) session.endProfiling();
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  console.log(JSON.stringify({
    median_ms: median, samples_ms: samples, output_names: session.outputNames,
    ort_version: ortVersion,
  }));
}

main().catch((error) => {
  console.error(`run_session: error: ${error.message}`);
  process.exit(1);
});
