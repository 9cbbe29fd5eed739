//===- SweepSpec.h - reading and checking sweep specs -----------*- C++ -*-===//
//
// A sweep spec is a `dispatchlab.sweep.SweepSpec` in protobuf text format.
// Syntax errors come from protobuf's TextFormat; semantic errors (unknown
// knob, bad preset, missing model) are found by `validateSweepSpec` and
// located with the parser's field locations, so both name file:line:col and
// the field.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COORDINATOR_SWEEPSPEC_H
#define DISPATCHLAB_COORDINATOR_SWEEPSPEC_H

#include "proto/sweep.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dispatchlab {

/// A job's address-space limit when the spec sets none.
constexpr uint64_t kDefaultMemoryLimitMb = 4096;
/// The least limit a spec may set: twice the 340 MB `dispatchlab compile` of
/// the smallest seed needs under the worker's RLIMIT_AS, pinned to one core
/// (measured with `prlimit --as`); below it the child cannot even map its
/// shared libraries.
constexpr uint64_t kMinMemoryLimitMb = 680;
/// The most whose size in bytes fits RLIMIT_AS.
constexpr uint64_t kMaxMemoryLimitMb = UINT64_MAX >> 20;
/// The longest timeout a spec may set: a year.
constexpr double kMaxTimeoutSeconds = 365 * 24 * 3600.0;

/// One problem of a spec: the field it is about, as (field, index) steps from
/// the root (index -1 for singular fields), and what is wrong.
struct SpecIssue {
  std::vector<std::pair<const google::protobuf::FieldDescriptor *, int>> path;
  std::string message;

  /// "variants[1].set[0]".
  std::string fieldPath() const;
};

/// Checks what the text format cannot: a name, models, at least one variant,
/// known presets and knobs with valid values, each set once per variant,
/// unique variant names, finite measurement settings within their bounds.
/// Model files are not looked at.
std::vector<SpecIssue> validateSweepSpec(const sweep::SweepSpec &spec);

/// A model named by a spec, read from disk.
struct ModelFile {
  std::string name;
  std::string path;
  std::string extension;
  std::string content;
};

/// A parsed, valid spec and its models.
struct LoadedSpec {
  sweep::SweepSpec spec;
  std::vector<ModelFile> models;
};

/// Reads, parses and validates the spec at `path` and reads its models.
/// A zoo name (no extension, no slash) is NAME.onnx or NAME.mlir in the
/// spec's directory, else in experiments/models/ of it or a directory
/// above, else in one of `zooDirs` (the repository's or installation's zoo,
/// for a spec outside it). The error holds one "FILE:LINE:COL: error:
/// FIELD: message" line per problem.
llvm::Expected<LoadedSpec>
loadSweepSpec(const std::string &path,
              llvm::ArrayRef<std::string> zooDirs = {});

/// Same, for spec text already in memory; model paths are relative to
/// `baseDir`.
llvm::Expected<LoadedSpec>
parseSweepSpec(llvm::StringRef text, const std::string &fileName,
               const std::string &baseDir,
               llvm::ArrayRef<std::string> zooDirs = {});

} // namespace dispatchlab

#endif // DISPATCHLAB_COORDINATOR_SWEEPSPEC_H
