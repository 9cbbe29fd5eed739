//===- Provenance.h - what produced a number ---------------------*- C++
//-*-===//

#ifndef DISPATCHLAB_CORE_SUPPORT_PROVENANCE_H
#define DISPATCHLAB_CORE_SUPPORT_PROVENANCE_H

#include "llvm/Support/JSON.h"

#include <string>

namespace dispatchlab {

/// Where a result comes from: the build of dispatchlab, the LLVM it uses and
/// the host it ran on. Recorded with every number the tool reports.
struct Provenance {
  std::string dispatchlabCommit;
  std::string llvmVersion;
  std::string hostCpu;
  /// Enabled host CPU features, sorted, comma-separated.
  std::string hostFeatures;

  /// Reads the values for this process and host.
  static Provenance current();
  llvm::json::Value toJson() const;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_PROVENANCE_H
