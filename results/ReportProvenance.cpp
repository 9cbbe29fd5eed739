//===- ReportProvenance.cpp - what produced a sweep's numbers -------------===//

#include "results/ReportProvenance.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

namespace dispatchlab {

static void addDistinct(std::vector<std::string> &values,
                        std::optional<llvm::StringRef> value) {
  if (value && !value->empty() && !llvm::is_contained(values, *value))
    values.push_back(value->str());
}

static void addVariant(const JobRecord &job, ReportProvenance &provenance) {
  auto it = llvm::find_if(provenance.variants,
                          [&](const ReportProvenance::Variant &variant) {
                            return variant.name == job.variant;
                          });
  if (it == provenance.variants.end()) {
    provenance.variants.push_back({job.variant, job.preset, job.options, {}});
    return;
  }
  if (it->options != job.options || it->preset != job.preset)
    it->modelsWithOtherOptions.push_back(job.model);
}

ReportProvenance collectProvenance(llvm::ArrayRef<JobRecord> jobs) {
  ReportProvenance provenance;
  for (const JobRecord &job : jobs) {
    addVariant(job, provenance);
    if (job.createdAt > 0) {
      provenance.firstResultAt =
          provenance.firstResultAt > 0
              ? std::min(provenance.firstResultAt, job.createdAt)
              : job.createdAt;
      provenance.lastResultAt =
          std::max(provenance.lastResultAt, job.createdAt);
    }
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse(job.provenanceJson);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      continue;
    }
    const llvm::json::Object *object = parsed->getAsObject();
    if (!object)
      continue;
    addDistinct(provenance.commits, object->getString("dispatchlab_commit"));
    addDistinct(provenance.llvmVersions, object->getString("llvm_version"));
    addDistinct(provenance.hostCpus, object->getString("host_cpu"));
    addDistinct(provenance.hostFeatures, object->getString("host_features"));
  }
  return provenance;
}

} // namespace dispatchlab
