//===- ReferenceCache.cpp - the reference's outputs, kept on disk ---------===//

#include "core/runtime/ReferenceCache.h"

#include "core/runtime/RunSession.h"
#include "core/support/ContentCache.h"
#include "core/support/Provenance.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace dispatchlab {

namespace {
/// Changes whenever what the key covers or the payload layout changes.
constexpr uint64_t kReferenceFormat = 1;

void addBuild(CacheKey &key) {
  Provenance build = Provenance::current();
  key.add("dispatchlab", build.dispatchlabCommit)
      .add("llvm", build.llvmVersion)
      .add("cpu", build.hostCpu)
      .add("features", build.hostFeatures);
}

void addImportOptions(CacheKey &key, const OnnxImportOptions &import) {
  key.add("batch", uint64_t(import.batch));
  for (const auto &[name, value] : import.dims)
    key.add("dim", name).add("value", uint64_t(value));
}

void addArray(CacheKey &key, const HostArray &array) {
  key.add("type", getElementTypeName(array.type));
  for (int64_t dim : array.shape)
    key.add("dim", uint64_t(dim));
  key.add("data", llvm::ArrayRef<uint8_t>(array.data));
}

llvm::Error damaged(const llvm::Twine &what) {
  return llvm::createStringError("reference entry: " + what);
}
} // namespace

llvm::Expected<std::string> getReferenceKey(const RunOptions &options,
                                            const ModelInputs &inputs) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> model =
      llvm::MemoryBuffer::getFile(options.modelPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!model)
    return llvm::createStringError(options.modelPath + ": " +
                                   model.getError().message());
  CacheKey key;
  key.add("format", kReferencePreset).add("version", kReferenceFormat);
  addBuild(key);
  key.add("model", (*model)->getBuffer());
  addImportOptions(key, options.import);
  key.add("weights", options.modelWeights ? "model" : "random")
      .add("seed", options.seed)
      .add("threads", uint64_t(options.codegen.threads));
  for (auto [array, source] : llvm::zip(inputs.arrays, inputs.sources))
    if (source != InputSource::Packed)
      addArray(key, array);
  return key.str();
}

std::string formatReferenceEntry(const ReferenceOutputs &reference) {
  std::string payload;
  llvm::raw_string_ostream os(payload);
  os << reference.dispatches << ' ' << reference.outputs.size() << '\n';
  for (const HostArray &output : reference.outputs) {
    std::string npy;
    llvm::raw_string_ostream npyStream(npy);
    writeNpy(npyStream, output);
    os << npy.size() << '\n' << npy;
  }
  return payload;
}

llvm::Expected<ReferenceOutputs> parseReferenceEntry(llvm::StringRef payload) {
  ReferenceOutputs reference;
  auto [counts, rest] = payload.split('\n');
  auto [dispatchText, outputText] = counts.split(' ');
  size_t outputs;
  if (dispatchText.getAsInteger(10, reference.dispatches) ||
      outputText.getAsInteger(10, outputs))
    return damaged("bad counts line");
  for (size_t index = 0; index < outputs; ++index) {
    auto [sizeText, tail] = rest.split('\n');
    size_t size;
    if (sizeText.getAsInteger(10, size) || size > tail.size())
      return damaged(llvm::formatv("output {0} is truncated", index));
    llvm::Expected<HostArray> array = parseNpy(tail.take_front(size));
    if (!array)
      return damaged(llvm::formatv("output {0}: {1}", index,
                                   llvm::toString(array.takeError())));
    reference.outputs.push_back(std::move(*array));
    rest = tail.drop_front(size);
  }
  if (!rest.empty())
    return damaged("trailing bytes");
  return reference;
}

} // namespace dispatchlab
