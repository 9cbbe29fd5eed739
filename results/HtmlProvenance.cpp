//===- HtmlProvenance.cpp - the HTML report's provenance header -----------===//

#include "results/HtmlSections.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <ctime>
#include <map>
#include <set>

namespace dispatchlab {

/// One `<dt>`/`<dd>` pair; several values say the results mix them.
static void printValues(llvm::StringRef term, llvm::StringRef plural,
                        llvm::ArrayRef<std::string> values,
                        llvm::StringRef ddClass, llvm::raw_ostream &os) {
  if (values.empty()) {
    os << "<dt>" << term << "</dt><dd>unknown (no result recorded one)</dd>\n";
    return;
  }
  os << "<dt>" << (values.size() > 1 ? plural : term);
  if (values.size() > 1)
    os << " (results come from " << values.size() << " different ones)";
  os << "</dt>";
  for (const std::string &value : values)
    os << "<dd class=\"" << ddClass << "\">" << htmlEscape(value) << "</dd>";
  os << "\n";
}

/// `key=value` lines as a map; a line without `=` is a key with no value.
static std::map<std::string, std::string> parseOptions(llvm::StringRef text) {
  std::map<std::string, std::string> options;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    auto [key, value] = line.split('=');
    options[key.trim().str()] = value.trim().str();
  }
  return options;
}

/// Every variant's options in full, side by side: a row per option, rows
/// where the variants differ highlighted.
static void
printOptionsTable(llvm::ArrayRef<ReportProvenance::Variant> variants,
                  llvm::raw_ostream &os) {
  std::vector<std::map<std::string, std::string>> options;
  std::set<std::string> keys;
  for (const ReportProvenance::Variant &variant : variants) {
    options.push_back(parseOptions(variant.options));
    for (const auto &entry : options.back())
      keys.insert(entry.first);
  }
  os << "<table class=\"options\"><thead><tr><th>option</th>";
  for (const ReportProvenance::Variant &variant : variants)
    os << "<th>" << htmlEscape(variant.name) << "</th>";
  os << "</tr></thead><tbody>\n<tr><td>preset</td>";
  for (const ReportProvenance::Variant &variant : variants)
    os << "<td>" << htmlEscape(variant.preset) << "</td>";
  os << "</tr>\n";
  for (const std::string &key : keys) {
    auto valueOf = [&](size_t v) {
      auto it = options[v].find(key);
      return it == options[v].end() ? std::string("(unset)") : it->second;
    };
    bool differs = llvm::any_of(llvm::seq(variants.size()), [&](size_t v) {
      return valueOf(v) != valueOf(0);
    });
    os << (differs ? "<tr class=\"differs\">" : "<tr>") << "<td>"
       << htmlEscape(key) << "</td>";
    for (size_t v = 0; v < variants.size(); ++v)
      os << "<td>" << htmlEscape(valueOf(v)) << "</td>";
    os << "</tr>\n";
  }
  os << "</tbody></table>\n";
  for (const ReportProvenance::Variant &variant : variants)
    if (!variant.modelsWithOtherOptions.empty())
      os << "<p class=\"note\">variant " << htmlEscape(variant.name)
         << " ran with other options for: "
         << htmlEscape(llvm::join(variant.modelsWithOtherOptions, ", "))
         << "</p>\n";
}

void printProvenanceSection(const ReportProvenance &provenance,
                            llvm::raw_ostream &os) {
  os << "<h2>provenance</h2>\n<dl class=\"provenance\">\n";
  printValues("dispatchlab commit", "dispatchlab commits", provenance.commits,
              "commit", os);
  printValues("LLVM", "LLVM versions", provenance.llvmVersions, "llvm", os);
  printValues("host CPU", "host CPUs", provenance.hostCpus, "cpu", os);
  printValues("host CPU features", "host CPU feature sets",
              provenance.hostFeatures, "features", os);
  os << "<dt>date</dt><dd class=\"date\">report generated "
     << formatUtcTime(static_cast<double>(std::time(nullptr)));
  if (provenance.firstResultAt > 0)
    os << "; results recorded " << formatUtcTime(provenance.firstResultAt);
  if (provenance.lastResultAt > provenance.firstResultAt)
    os << " to " << formatUtcTime(provenance.lastResultAt);
  os << "</dd>\n</dl>\n";
  if (!provenance.variants.empty()) {
    os << "<h3>options of each variant, in full (highlighted: where they "
          "differ)</h3>\n";
    printOptionsTable(provenance.variants, os);
  }
}

} // namespace dispatchlab
