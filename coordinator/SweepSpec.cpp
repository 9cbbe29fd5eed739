//===- SweepSpec.cpp - reading and checking sweep specs -------------------===//

#include "coordinator/SweepSpec.h"

#include "coordinator/SweepExpander.h"

#include "heuristics/HeuristicOptions.h"

#include "core/support/PairedStatistics.h"

#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>
#include <optional>

using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

namespace dispatchlab {

std::string SpecIssue::fieldPath() const {
  std::string text;
  for (auto [field, index] : path) {
    if (!text.empty())
      text += ".";
    text += field->name();
    if (index >= 0)
      text += llvm::formatv("[{0}]", index).str();
  }
  return text;
}

namespace {
const FieldDescriptor *field(const google::protobuf::Descriptor *message,
                             const char *name) {
  return message->FindFieldByName(name);
}

/// Collects issues with the path of the message being checked.
class Checker {
public:
  using Path = decltype(SpecIssue::path);

  void report(const Path &path, std::string message) {
    issues.push_back({path, std::move(message)});
  }

  /// `at` extended by the field `name` of `message` (at `index` if repeated).
  static Path child(Path at, const google::protobuf::Descriptor *message,
                    const char *name, int index = -1) {
    at.push_back({field(message, name), index});
    return at;
  }

  /// A knob override "key=value" (or an axis value) against HeuristicOptions.
  void checkKnob(const Path &path, llvm::StringRef key, llvm::StringRef value) {
    if (key == "preset") {
      if (failed(HeuristicOptions::fromPreset(value)))
        report(path, presetError(value));
      return;
    }
    HeuristicOptions options;
    if (llvm::Error error = options.set(key, value))
      report(path, llvm::toString(std::move(error)));
  }

  static std::string presetError(llvm::StringRef name) {
    return llvm::formatv("unknown preset '{0}' (expected one of {1})", name,
                         llvm::join(HeuristicOptions::presetNames(), ", "));
  }

  void checkVariant(const sweep::Variant &variant, const Path &at,
                    llvm::StringSet<> &names);
  void checkAxis(const sweep::Axis &axis, const Path &at,
                 llvm::StringSet<> &knobs);
  void checkMeasurement(const sweep::Measurement &measurement, const Path &at);
  void checkFiniteNonNegative(const Path &path, double value,
                              std::optional<double> most = std::nullopt,
                              llvm::StringRef why = "");
  void checkMemoryLimit(const Path &path, uint64_t megabytes);
  void checkComparison(const sweep::SweepSpec &spec);

  std::vector<SpecIssue> issues;
};

/// Its name (unique among `names`), preset and knob settings (each knob
/// once).
void Checker::checkVariant(const sweep::Variant &variant, const Path &at,
                           llvm::StringSet<> &names) {
  const auto *type = sweep::Variant::descriptor();
  if (variant.name().empty())
    report(child(at, type, "name"), "a variant needs a name");
  else if (!names.insert(variant.name()).second)
    report(child(at, type, "name"),
           llvm::formatv("duplicate variant name '{0}'", variant.name()));
  if (!variant.preset().empty() &&
      failed(HeuristicOptions::fromPreset(variant.preset())))
    report(child(at, type, "preset"), presetError(variant.preset()));
  // A knob set twice would leave which value wins to the order of `set`.
  llvm::StringSet<> knobs;
  for (int j = 0; j < variant.set_size(); ++j) {
    Path set = child(at, type, "set", j);
    auto [key, value] = llvm::StringRef(variant.set(j)).split('=');
    llvm::StringRef knob = key.trim();
    if (!llvm::StringRef(variant.set(j)).contains('='))
      report(set,
             llvm::formatv("expected 'knob=value', got '{0}'", variant.set(j)));
    else if (key == "preset")
      report(set, "set the preset with 'preset:'");
    else if (!knobs.insert(knob).second)
      report(set, llvm::formatv("knob '{0}' is set twice in variant '{1}'",
                                knob, variant.name()));
    else
      checkKnob(set, knob, value.trim());
  }
}

/// Its knob (one axis per knob among `knobs`) and values.
void Checker::checkAxis(const sweep::Axis &axis, const Path &at,
                        llvm::StringSet<> &knobs) {
  const auto *type = sweep::Axis::descriptor();
  if (!knobs.insert(axis.knob()).second)
    report(child(at, type, "knob"),
           llvm::formatv("knob '{0}' has two axes", axis.knob()));
  if (axis.values().empty())
    report(child(at, type, "values"), "an axis needs at least one value");
  for (int j = 0; j < axis.values_size(); ++j)
    checkKnob(child(at, type, "values", j), axis.knob(), axis.values(j));
}

/// `value` as the spec would spell it ("1e+300", "0.5").
std::string shortest(double value) {
  char text[32];
  snprintf(text, sizeof(text), "%.15g", value);
  return text;
}

/// A double setting: finite (protobuf's text format accepts inf and nan), not
/// negative and, when `most` is given, at most that.
void Checker::checkFiniteNonNegative(const Path &path, double value,
                                     std::optional<double> most,
                                     llvm::StringRef why) {
  if (std::isnan(value) || std::isinf(value))
    report(path,
           llvm::formatv("must be finite, got {0}", std::isnan(value) ? "nan"
                                                    : value < 0       ? "-inf"
                                                                      : "inf"));
  else if (value < 0)
    report(path, "must not be negative");
  else if (most && value > *most)
    report(path,
           llvm::formatv("must be at most {0} ({1}), got {2}",
                         static_cast<uint64_t>(*most), why, shortest(value)));
}

void Checker::checkMeasurement(const sweep::Measurement &measurement,
                               const Path &at) {
  const auto *type = sweep::Measurement::descriptor();
  // Far longer timeouts overflow the worker's deadline arithmetic, as inf
  // did (killing every job at once); no job runs for a year.
  checkFiniteNonNegative(child(at, type, "timeout_seconds"),
                         measurement.timeout_seconds(), kMaxTimeoutSeconds,
                         "a year");
  checkFiniteNonNegative(child(at, type, "tolerance"), measurement.tolerance());
  checkFiniteNonNegative(child(at, type, "warmup_seconds"),
                         measurement.warmup_seconds());
  checkMemoryLimit(child(at, type, "memory_limit_mb"),
                   measurement.memory_limit_mb());
  checkFiniteNonNegative(child(at, type, "target_ci_percent"),
                         measurement.target_ci_percent());
  checkFiniteNonNegative(child(at, type, "budget_seconds"),
                         measurement.budget_seconds());
  checkFiniteNonNegative(child(at, type, "max_load"), measurement.max_load());
  // compare takes its default minimum of rounds first: fewer at most is a
  // contradiction it would refuse in every job.
  if (measurement.max_rounds() > 0 &&
      measurement.max_rounds() < kDefaultMinRounds)
    report(child(at, type, "max_rounds"),
           llvm::formatv("must be at least {0}, the rounds a comparison "
                         "takes before it may stop",
                         kDefaultMinRounds));
  if (measurement.copies() > 1 && measurement.copies() < kMinCopies)
    report(child(at, type, "copies"),
           llvm::formatv("must be 1 or at least {0}: fewer copies give no "
                         "95% interval",
                         kMinCopies));
}

/// A COMPARE sweep's baseline names one of its COMPARE variants, and there
/// is something to compare. Only asked once every variant resolves.
void Checker::checkComparison(const sweep::SweepSpec &spec) {
  const auto *type = sweep::SweepSpec::descriptor();
  llvm::Expected<std::vector<ResolvedVariant>> variants = resolveVariants(spec);
  if (!variants) {
    report({{field(type, "variants"), -1}},
           llvm::toString(variants.takeError()));
    return;
  }
  llvm::Expected<std::vector<ResolvedVariant>> compared =
      comparedVariants(spec, *variants);
  if (!compared) {
    report({{field(type, "baseline"), -1}},
           llvm::toString(compared.takeError()));
    return;
  }
  if (compared->empty() && !spec.baseline().empty())
    report({{field(type, "baseline"), -1}},
           "a baseline is only read by kind: COMPARE");
  else if (compared->size() == 1 && !spec.measurement().aa())
    report({{field(type, "kind"), -1}},
           "a COMPARE sweep needs two variants, or one and measurement.aa");
}

/// 0 is the default; below the floor the child fails to start and looks
/// like a broken model; above the ceiling the limit in bytes overflows.
void Checker::checkMemoryLimit(const Path &path, uint64_t megabytes) {
  if (megabytes == 0)
    return;
  if (megabytes < kMinMemoryLimitMb)
    report(path,
           llvm::formatv("{0} MB is too little for dispatchlab to start "
                         "reliably: at least {1} (0 for the default, "
                         "{2})",
                         megabytes, kMinMemoryLimitMb, kDefaultMemoryLimitMb));
  else if (megabytes > kMaxMemoryLimitMb)
    report(path, llvm::formatv("{0} MB does not fit an address-space limit in "
                               "bytes: at most {1}",
                               megabytes, kMaxMemoryLimitMb));
}
} // namespace

std::vector<SpecIssue> validateSweepSpec(const sweep::SweepSpec &spec) {
  const auto *specType = sweep::SweepSpec::descriptor();
  Checker checker;
  if (spec.name().empty())
    checker.report({{field(specType, "name"), -1}}, "a sweep needs a name");
  if (spec.models().empty())
    checker.report({{field(specType, "models"), -1}},
                   "a sweep needs at least one model");
  if (spec.variants().empty() && spec.axes().empty())
    checker.report({{field(specType, "variants"), -1}},
                   "a sweep needs variants or axes");

  llvm::StringSet<> names;
  for (int i = 0; i < spec.variants_size(); ++i)
    checker.checkVariant(spec.variants(i), {{field(specType, "variants"), i}},
                         names);

  if (!spec.axes_preset().empty() &&
      failed(HeuristicOptions::fromPreset(spec.axes_preset())))
    checker.report({{field(specType, "axes_preset"), -1}},
                   Checker::presetError(spec.axes_preset()));
  llvm::StringSet<> knobs;
  for (int i = 0; i < spec.axes_size(); ++i)
    checker.checkAxis(spec.axes(i), {{field(specType, "axes"), i}}, knobs);

  checker.checkMeasurement(spec.measurement(),
                           {{field(specType, "measurement"), -1}});
  bool compares =
      spec.kind() == sweep::COMPARE || !spec.baseline().empty() ||
      llvm::any_of(spec.variants(), [](const sweep::Variant &variant) {
        return variant.kind() == sweep::COMPARE;
      });
  if (compares && checker.issues.empty())
    checker.checkComparison(spec);
  return std::move(checker.issues);
}

namespace {
/// Syntax errors from TextFormat, in compiler style.
class ErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  ErrorCollector(const std::string &fileName, std::string &errors)
      : fileName(fileName), errors(errors) {}
  void AddError(int line, int column, const std::string &message) override {
    add(line, column, "error", message);
  }
  void AddWarning(int line, int column, const std::string &message) override {
    add(line, column, "warning", message);
  }
  bool hasErrors = false;

private:
  void add(int line, int column, const char *severity,
           const std::string &message) {
    hasErrors |= llvm::StringRef(severity) == "error";
    // TextFormat counts from 0.
    errors += llvm::formatv("{0}:{1}:{2}: {3}: {4}\n", fileName, line + 1,
                            column + 1, severity, message);
  }
  const std::string &fileName;
  std::string &errors;
};

/// Where the parser saw the field of `issue` (its closest located ancestor).
std::pair<int, int> locate(const TextFormat::ParseInfoTree &root,
                           const SpecIssue &issue) {
  std::pair<int, int> best = {0, 0};
  const TextFormat::ParseInfoTree *tree = &root;
  for (auto [field, index] : issue.path) {
    // A repeated field as a whole (e.g. "no variants") has no location of
    // its own; protobuf aborts on index -1 there.
    if (!tree || (field->is_repeated() && index < 0))
      break;
    TextFormat::ParseLocation location = tree->GetLocation(field, index);
    if (location.line >= 0)
      best = {location.line + 1, location.column + 1};
    tree =
        field->message_type() ? tree->GetTreeForNested(field, index) : nullptr;
  }
  return best;
}

/// NAME.onnx or NAME.mlir in `dir`, if either exists.
std::optional<std::string> zooFile(llvm::StringRef dir, llvm::StringRef name) {
  for (const char *zooExtension : {".onnx", ".mlir"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name + zooExtension);
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return std::nullopt;
}

/// A model name from the spec resolved to a file: a path (relative to the
/// spec) when it has a model extension or a slash, else a zoo name (see
/// loadSweepSpec).
std::optional<std::string> resolveModel(llvm::StringRef name,
                                        const std::string &baseDir,
                                        llvm::ArrayRef<std::string> zooDirs) {
  llvm::StringRef extension = llvm::sys::path::extension(name);
  if (extension == ".mlir" || extension == ".onnx" || name.contains('/')) {
    llvm::SmallString<256> path(name);
    if (llvm::sys::path::is_relative(path)) {
      path = baseDir;
      llvm::sys::path::append(path, name);
    }
    if (!llvm::sys::fs::exists(path))
      return std::nullopt;
    return std::string(path);
  }
  llvm::SmallString<256> dir(baseDir);
  llvm::sys::fs::make_absolute(dir);
  if (std::optional<std::string> beside = zooFile(dir, name))
    return beside;
  for (; !dir.empty(); dir = llvm::sys::path::parent_path(dir)) {
    llvm::SmallString<256> zoo(dir);
    llvm::sys::path::append(zoo, "experiments", "models");
    if (std::optional<std::string> found = zooFile(zoo, name))
      return found;
    if (llvm::sys::path::parent_path(dir) == dir)
      break;
  }
  for (const std::string &zoo : zooDirs)
    if (std::optional<std::string> found = zooFile(zoo, name))
      return found;
  return std::nullopt;
}

/// The models `spec` names, read from disk; one it cannot find or read is
/// an issue of `issues`.
std::vector<ModelFile> readModels(const sweep::SweepSpec &spec,
                                  const std::string &baseDir,
                                  llvm::ArrayRef<std::string> zooDirs,
                                  std::vector<SpecIssue> &issues) {
  const FieldDescriptor *modelsField =
      sweep::SweepSpec::descriptor()->FindFieldByName("models");
  std::vector<ModelFile> models;
  for (int i = 0; i < spec.models_size(); ++i) {
    const std::string &name = spec.models(i);
    std::optional<std::string> path = resolveModel(name, baseDir, zooDirs);
    if (!path) {
      std::string zoos;
      for (const std::string &zoo : zooDirs)
        zoos += ", " + zoo;
      issues.push_back(
          {{{modelsField, i}},
           llvm::formatv("model '{0}' not found (a path relative to the "
                         "spec, or a zoo name: looked in the spec's "
                         "directory, experiments/models/ in it or above{1})",
                         name, zoos)});
      continue;
    }
    auto buffer = llvm::MemoryBuffer::getFile(*path);
    if (!buffer) {
      issues.push_back({{{modelsField, i}},
                        llvm::formatv("cannot read model '{0}': {1}", *path,
                                      buffer.getError().message())});
      continue;
    }
    models.push_back({name, *path, llvm::sys::path::extension(*path).str(),
                      (*buffer)->getBuffer().str()});
  }
  return models;
}

/// `errors`, diagnostic lines each ending in a newline, as one error.
llvm::Error specError(llvm::StringRef errors, const std::string &fileName) {
  errors.consume_back("\n");
  // A parser that fails should have said why; never an empty error.
  if (errors.empty())
    return llvm::createStringError(fileName +
                                   ": error: cannot parse sweep spec");
  return llvm::createStringError(errors);
}
} // namespace

llvm::Expected<LoadedSpec> parseSweepSpec(llvm::StringRef text,
                                          const std::string &fileName,
                                          const std::string &baseDir,
                                          llvm::ArrayRef<std::string> zooDirs) {
  LoadedSpec loaded;
  std::string errors;
  ErrorCollector collector(fileName, errors);
  TextFormat::ParseInfoTree locations;
  TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  parser.WriteLocationsTo(&locations);
  if (!parser.ParseFromString(std::string(text), &loaded.spec) ||
      collector.hasErrors)
    return specError(errors, fileName);

  std::vector<SpecIssue> issues = validateSweepSpec(loaded.spec);
  loaded.models = readModels(loaded.spec, baseDir, zooDirs, issues);
  for (const SpecIssue &issue : issues) {
    auto [line, column] = locate(locations, issue);
    errors += llvm::formatv("{0}:{1}:{2}: error: {3}: {4}\n", fileName, line,
                            column, issue.fieldPath(), issue.message);
  }
  if (!issues.empty())
    return specError(errors, fileName);
  return loaded;
}

llvm::Expected<LoadedSpec> loadSweepSpec(const std::string &path,
                                         llvm::ArrayRef<std::string> zooDirs) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(
        llvm::formatv("{0}: error: cannot read sweep spec: {1}", path,
                      buffer.getError().message())
            .str());
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(path));
  if (dir.empty())
    dir = ".";
  return parseSweepSpec((*buffer)->getBuffer(), path, std::string(dir),
                        zooDirs);
}

} // namespace dispatchlab
