//===- DispatchTable.cpp - compile statistics for humans ------------------===//

#include "core/analysis/DispatchTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace dispatchlab {

/// Wide enough for a few SSA names, narrow enough to keep a row on one line.
static constexpr size_t kMembersWidth = 48;
/// Like a short git hash: enough to tell a model's executables apart.
static constexpr size_t kShortHashLength = 8;

/// Joins `names` with ", ", replacing what does not fit in `width` by
/// "... (+N)". The first name is always kept so the row says something.
static std::string joinTruncated(ArrayRef<std::string> names, size_t width) {
  std::string full = join(names, ", ");
  if (full.size() <= width)
    return full;
  std::string text = names.front();
  size_t kept = 1;
  auto suffix = [&](size_t remaining) {
    return formatv(", ... (+{0})", remaining).str();
  };
  for (; kept < names.size(); ++kept) {
    size_t grown = text.size() + 2 + names[kept].size();
    if (grown + suffix(names.size() - kept - 1).size() > width)
      break;
    text += ", " + names[kept];
  }
  return text + suffix(names.size() - kept);
}

void printDispatchTable(const CompileStats &stats, raw_ostream &os) {
  os << "Model: " << stats.model << "\n";
  SmallVector<StringRef> options;
  StringRef(stats.options).split(options, '\n', -1, /*KeepEmpty=*/false);
  if (!options.empty())
    os << "Options: " << join(options, " ") << "\n";
  // IREE's DumpStatistics reports reuse as 1 - executables / dispatches.
  double reuse = stats.dispatches
                     ? 1.0 - double(stats.executables) / stats.dispatches
                     : 0.0;
  os << formatv("Dispatches: {0}  Executables: {1} ({2:P0} reuse)  "
                "Fills: {3}  Copies: {4}\n",
                stats.dispatches, stats.executables, reuse, stats.fills,
                stats.copies);
  os << formatv("Generic ops: {0} before, {1} after  Transient: {2} bytes\n",
                stats.genericBefore, stats.genericAfter, stats.transientBytes);
  if (stats.setEncodings)
    os << formatv("Encodings: {0} set_encoding, {1} unhoisted\n",
                  stats.setEncodings, stats.unhoistedEncodings.size());
  if (stats.groups.empty())
    return;

  SmallVector<std::string> members =
      map_to_vector(stats.groups, [](const DispatchGroupStats &group) {
        return joinTruncated(group.members, kMembersWidth);
      });
  auto widest = [](size_t minimum, auto &&texts) {
    size_t width = minimum;
    for (const std::string &text : texts)
      width = std::max(width, text.size());
    return width;
  };
  size_t indexWidth = std::max<size_t>(1, utostr(stats.groups.size()).size());
  size_t kindWidth = widest(
      4, map_range(stats.groups, [](auto &group) { return group.kind; }));
  size_t rootWidth = widest(
      4, map_range(stats.groups, [](auto &group) { return group.root; }));
  size_t membersWidth = widest(7, members);

  auto printRow = [&](StringRef index, StringRef kind, StringRef root,
                      StringRef memberText, StringRef operands,
                      StringRef results, StringRef executable) {
    os << formatv("{0}  {1}  {2}  {3}  {4}  {5}  {6}\n",
                  fmt_align(index, AlignStyle::Right, indexWidth),
                  fmt_align(kind, AlignStyle::Left, kindWidth),
                  fmt_align(root, AlignStyle::Left, rootWidth),
                  fmt_align(memberText, AlignStyle::Left, membersWidth),
                  fmt_align(operands, AlignStyle::Right, 4),
                  fmt_align(results, AlignStyle::Right, 4), executable);
  };
  os << "\n";
  printRow("#", "kind", "root", "members", "ins", "outs", "executable");
  for (auto [index, group] : enumerate(stats.groups))
    printRow(utostr(index), group.kind, group.root, members[index],
             utostr(group.numOperands), utostr(group.numResults),
             StringRef(group.executableHash).take_front(kShortHashLength));
}

} // namespace dispatchlab
