//===- Npy.cpp - NumPy .npy arrays in and out -----------------------------===//

#include "core/support/Npy.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>
#include <string>

namespace dispatchlab {

namespace {
struct TypeInfo {
  ElementType type;
  const char *descr;
  const char *name;
  size_t bytes;
};
constexpr TypeInfo kTypes[] = {
    {ElementType::F16, "<f2", "float16", 2},
    // numpy has no bfloat16: arrays of ml_dtypes' bfloat16 save as 2-byte
    // voids, which is how ours are written and read back.
    {ElementType::BF16, "<V2", "bfloat16", 2},
    {ElementType::F32, "<f4", "float32", 4},
    {ElementType::F64, "<f8", "float64", 8},
    {ElementType::I8, "|i1", "int8", 1},
    {ElementType::I32, "<i4", "int32", 4},
    {ElementType::I64, "<i8", "int64", 8},
    {ElementType::Bool, "|b1", "bool", 1},
};
const TypeInfo &getInfo(ElementType type) {
  for (const TypeInfo &info : kTypes)
    if (info.type == type)
      return info;
  llvm_unreachable("unknown element type");
}

constexpr char kMagic[] = "\x93NUMPY";

/// The value of `key` in the header dict, up to the next top-level comma or
/// closing brace (shape tuples contain commas, so parentheses nest).
std::optional<std::string> findHeaderValue(llvm::StringRef header,
                                           llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t pos = header.find(quoted);
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  pos = header.find(':', pos + quoted.size());
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  int depth = 0;
  size_t end = pos + 1;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  return header.slice(pos + 1, end).trim().str();
}
} // namespace

size_t getElementBytes(ElementType type) { return getInfo(type).bytes; }
llvm::StringRef getElementTypeName(ElementType type) {
  return getInfo(type).name;
}

HostArray::HostArray(ElementType type, std::vector<int64_t> shape)
    : type(type), shape(std::move(shape)) {
  data.assign(numElements() * getElementBytes(type), 0);
}

int64_t HostArray::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

double HostArray::getDouble(int64_t i) const {
  const uint8_t *p = data.data() + i * getElementBytes(type);
  switch (type) {
  case ElementType::F16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
        .convertToDouble();
  }
  case ElementType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return llvm::APFloat(llvm::APFloat::BFloat(), llvm::APInt(16, bits))
        .convertToDouble();
  }
  case ElementType::F32: {
    float value;
    std::memcpy(&value, p, 4);
    return value;
  }
  case ElementType::F64: {
    double value;
    std::memcpy(&value, p, 8);
    return value;
  }
  case ElementType::I8:
    return static_cast<int8_t>(*p);
  case ElementType::I32: {
    int32_t value;
    std::memcpy(&value, p, 4);
    return value;
  }
  case ElementType::I64: {
    int64_t value;
    std::memcpy(&value, p, 8);
    return static_cast<double>(value);
  }
  case ElementType::Bool:
    return *p ? 1.0 : 0.0;
  }
  llvm_unreachable("unknown element type");
}

void HostArray::setDouble(int64_t i, double value) {
  uint8_t *p = data.data() + i * getElementBytes(type);
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16: {
    llvm::APFloat narrow(value);
    bool losesInfo;
    narrow.convert(type == ElementType::F16 ? llvm::APFloat::IEEEhalf()
                                            : llvm::APFloat::BFloat(),
                   llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    uint16_t bits = narrow.bitcastToAPInt().getZExtValue();
    std::memcpy(p, &bits, 2);
    return;
  }
  case ElementType::F32: {
    float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case ElementType::F64:
    std::memcpy(p, &value, 8);
    return;
  case ElementType::I8:
    *p = static_cast<uint8_t>(static_cast<int8_t>(value));
    return;
  case ElementType::I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case ElementType::I64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(p, &v, 8);
    return;
  }
  case ElementType::Bool:
    *p = value != 0.0;
    return;
  }
}

namespace {
/// The header dict of a .npy file and where the data after it starts.
struct NpyHeader {
  llvm::StringRef dict;
  size_t dataStart;
};

/// Version 1.0 gives the header's length in two bytes, 2.0 and 3.0 in four.
llvm::Expected<NpyHeader> findHeader(llvm::StringRef bytes) {
  if (!bytes.starts_with(llvm::StringRef(kMagic, 6)) || bytes.size() < 10)
    return llvm::createStringError("not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | uint8_t(bytes[9]) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return llvm::createStringError("truncated header");
    headerLength =
        uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
        uint32_t(uint8_t(bytes[10])) << 16 | uint32_t(uint8_t(bytes[11])) << 24;
    headerStart = 12;
  } else {
    return llvm::createStringError("unsupported .npy version " +
                                   llvm::Twine(int(major)));
  }
  if (bytes.size() < headerStart + headerLength)
    return llvm::createStringError("truncated header");
  return NpyHeader{bytes.substr(headerStart, headerLength),
                   headerStart + headerLength};
}

/// The element type of a header's `descr` value (quoted).
llvm::Expected<const TypeInfo *> parseDescr(llvm::StringRef descr) {
  llvm::StringRef descrText = descr.trim("'\"");
  const TypeInfo *info = nullptr;
  for (const TypeInfo &candidate : kTypes)
    if (descrText == candidate.descr ||
        // One-byte types have no byte order; numpy writes '|'.
        (candidate.bytes == 1 &&
         descrText.drop_front() ==
             llvm::StringRef(candidate.descr).drop_front()))
      info = &candidate;
  if (!info)
    return llvm::createStringError(
        "unsupported dtype '" + descrText +
        "' (expected little-endian f2, f4, f8, i1, i4, i8, b1, or V2 for "
        "bfloat16)");
  return info;
}

/// The dims of a header's `shape` tuple: `(2, 3)`, `(4,)` or `()`.
llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef shapeText) {
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> dims;
  shapeText.trim("() ").split(dims, ',', -1, false);
  for (llvm::StringRef dim : dims) {
    int64_t value;
    if (dim.trim().getAsInteger(10, value) || value < 0)
      return llvm::createStringError("bad shape " + shapeText);
    shape.push_back(value);
  }
  return shape;
}

} // namespace

llvm::Expected<HostArray> parseNpy(llvm::StringRef bytes) {
  llvm::Expected<NpyHeader> header = findHeader(bytes);
  if (!header)
    return header.takeError();
  std::optional<std::string> descr = findHeaderValue(header->dict, "descr");
  std::optional<std::string> fortran =
      findHeaderValue(header->dict, "fortran_order");
  std::optional<std::string> shapeText = findHeaderValue(header->dict, "shape");
  if (!descr || !fortran || !shapeText)
    return llvm::createStringError(
        "header lacks descr, fortran_order or shape");
  if (*fortran != "False")
    return llvm::createStringError("Fortran-order arrays are not supported");
  llvm::Expected<const TypeInfo *> info = parseDescr(*descr);
  if (!info)
    return info.takeError();
  llvm::Expected<std::vector<int64_t>> shape = parseShape(*shapeText);
  if (!shape)
    return shape.takeError();

  HostArray array;
  array.type = (*info)->type;
  array.shape = std::move(*shape);
  size_t dataBytes = array.numElements() * (*info)->bytes;
  size_t foundBytes = bytes.size() - header->dataStart;
  if (foundBytes != dataBytes)
    return llvm::createStringError("expected " + llvm::Twine(dataBytes) +
                                   " data bytes, found " +
                                   llvm::Twine(foundBytes));
  array.data.assign(bytes.begin() + header->dataStart, bytes.end());
  return array;
}

namespace {
/// The header dict of `array`, padded so that the data starts 64-byte
/// aligned.
std::string formatHeader(const HostArray &array) {
  std::string shape = "(";
  for (int64_t dim : array.shape)
    shape += std::to_string(dim) + ", ";
  if (array.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (array.shape.size() == 1)
    shape.pop_back(); // numpy writes one-element tuples as `(n,)`
  shape += ")";
  std::string header = "{'descr': '" + std::string(getInfo(array.type).descr) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
  size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  return header;
}
} // namespace

llvm::Expected<HostArray> readNpy(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(path + ": " + file.getError().message());
  llvm::Expected<HostArray> array = parseNpy((*file)->getBuffer());
  if (!array)
    return llvm::createStringError(path + ": " +
                                   llvm::toString(array.takeError()));
  return array;
}

llvm::Error writeNpy(llvm::StringRef path, const HostArray &array) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(path + ": " + ec.message());
  writeNpy(os, array);
  os.close();
  if (os.has_error()) {
    std::error_code writeError = os.error();
    os.clear_error();
    return llvm::createStringError(path + ": " + writeError.message());
  }
  return llvm::Error::success();
}

void writeNpy(llvm::raw_ostream &os, const HostArray &array) {
  std::string header = formatHeader(array);
  os << llvm::StringRef(kMagic, 6) << '\x01' << '\x00'
     << char(header.size() & 0xff) << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(array.data.data()),
           array.data.size());
}

} // namespace dispatchlab
