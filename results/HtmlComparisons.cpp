//===- HtmlComparisons.cpp - a model's variants side by side --------------===//

#include "results/HtmlSections.h"
#include "results/VariantComparison.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace dispatchlab {

/// "main_dispatch_2 (root %mm)", or "none" for an op a variant lacks.
static std::string describeDispatch(const std::optional<std::string> &name,
                                    const results::CompileStats &stats) {
  if (!name)
    return "none (not a member of any dispatch)";
  for (const results::DispatchGroup &group : stats.groups())
    if (group.name() == *name)
      return *name + " (root " + group.root() + ")";
  return *name;
}

static void printMovedOps(const VariantComparison &comparison,
                          const results::CompileStats &a,
                          const results::CompileStats &b, llvm::StringRef nameA,
                          llvm::StringRef nameB, llvm::raw_ostream &os) {
  if (comparison.moved.empty())
    return;
  os << "<table class=\"moved\"><thead><tr><th>op</th><th>dispatch in "
     << htmlEscape(nameA) << "</th><th>dispatch in " << htmlEscape(nameB)
     << "</th></tr></thead><tbody>\n";
  for (const VariantComparison::MovedOp &op : comparison.moved)
    os << "<tr class=\"differs\"><td>" << htmlEscape(op.op) << "</td><td>"
       << htmlEscape(describeDispatch(op.dispatchInA, a)) << "</td><td>"
       << htmlEscape(describeDispatch(op.dispatchInB, b)) << "</td></tr>\n";
  os << "</tbody></table>\n";
}

static void printComparison(const Pivot &pivot, size_t m, size_t a, size_t b,
                            const results::CompileStats &statsA,
                            const results::CompileStats &statsB,
                            GraphDrawer &graphs, llvm::raw_ostream &os) {
  const std::string &nameA = pivot.variants[a], &nameB = pivot.variants[b];
  VariantComparison comparison = compareVariants(statsA, statsB);
  os << llvm::formatv("<details class=\"comparison\" id=\"compare-{0}-{1}\">"
                      "<summary>",
                      m, b)
     << htmlEscape(pivot.models[m]) << ": " << htmlEscape(nameA) << " vs "
     << htmlEscape(nameB) << ": ";
  if (comparison.same())
    os << "the same dispatches";
  else
    os << llvm::formatv("{0} of {1}'s and {2} of {3}'s dispatches differ, "
                        "{4} ops moved",
                        comparison.changedInA.size(), htmlEscape(nameA),
                        comparison.changedInB.size(), htmlEscape(nameB),
                        comparison.moved.size());
  os << "</summary>\n";
  // Equal dispatches need no second look (the results above have graphs).
  if (comparison.same()) {
    os << "</details>\n";
    return;
  }
  printMovedOps(comparison, statsA, statsB, nameA, nameB, os);
  os << "<div class=\"side-by-side\">\n<figure><figcaption>"
     << htmlEscape(nameA) << "</figcaption>\n";
  graphs.print(statsA, comparison.changedInA, os);
  os << "</figure>\n<figure><figcaption>" << htmlEscape(nameB)
     << "</figcaption>\n";
  graphs.print(statsB, comparison.changedInB, os);
  os << "</figure>\n</div>\n</details>\n";
}

void printVariantComparisons(const Pivot &pivot, llvm::ArrayRef<JobRecord> jobs,
                             GraphDrawer &graphs, llvm::raw_ostream &os) {
  if (pivot.variants.size() < 2)
    return;
  size_t reference = 0;
  if (pivot.request.baseline)
    reference = llvm::find(pivot.variants, *pivot.request.baseline) -
                pivot.variants.begin();
  os << "<h2>variants side by side: " << htmlEscape(pivot.variants[reference])
     << " against each other variant (highlighted: dispatches the other "
        "variant has no dispatch with the same members for)</h2>\n"
        "<section id=\"comparisons\">\n";
  for (size_t m = 0; m < pivot.models.size(); ++m) {
    const JobRecord *base =
        findJob(jobs, pivot.models[m], pivot.variants[reference]);
    std::optional<results::CompileStats> baseStats =
        base ? base->stats() : std::nullopt;
    if (!baseStats)
      continue;
    for (size_t v = 0; v < pivot.variants.size(); ++v) {
      const JobRecord *other =
          findJob(jobs, pivot.models[m], pivot.variants[v]);
      std::optional<results::CompileStats> otherStats =
          v != reference && other ? other->stats() : std::nullopt;
      if (otherStats)
        printComparison(pivot, m, reference, v, *baseStats, *otherStats, graphs,
                        os);
    }
  }
  os << "</section>\n";
}

} // namespace dispatchlab
