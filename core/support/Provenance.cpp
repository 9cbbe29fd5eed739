//===- Provenance.cpp - what produced a number ----------------------------===//

#include "core/support/Provenance.h"

#include "core/support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <vector>

namespace dispatchlab {

Provenance Provenance::current() {
  Provenance provenance;
  provenance.dispatchlabCommit = DISPATCHLAB_GIT_COMMIT;
  provenance.llvmVersion = LLVM_VERSION_STRING;
  provenance.hostCpu = llvm::sys::getHostCPUName().str();
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.getValue())
      features.push_back(feature.getKey().str());
  std::sort(features.begin(), features.end());
  provenance.hostFeatures = llvm::join(features, ",");
  return provenance;
}

llvm::json::Value Provenance::toJson() const {
  return llvm::json::Object{
      {"dispatchlab_commit", dispatchlabCommit},
      {"llvm_version", llvmVersion},
      {"host_cpu", hostCpu},
      {"host_features", hostFeatures},
  };
}

} // namespace dispatchlab
