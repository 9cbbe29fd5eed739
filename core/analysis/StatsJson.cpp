//===- StatsJson.cpp - compile statistics as JSON -------------------------===//

#include "core/analysis/StatsJson.h"

#include "core/support/Provenance.h"
#include "proto/ProtoJson.h"

using namespace llvm;

namespace dispatchlab {

/// The canonical option text is one `key=value` per line; a line without
/// `=` is a key with an empty value.
static void addOptions(StringRef text, results::CompileStats &record) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [key, value] = line.split('=');
    (*record.mutable_options())[key.trim().str()] = value.trim().str();
  }
}

static void addGroup(const DispatchGroupStats &group,
                     results::DispatchGroup &record) {
  record.set_name(group.name);
  record.set_kind(group.kind);
  record.set_root(group.root);
  record.set_root_op(group.rootOp);
  record.set_root_class(group.rootClass);
  for (const std::string &member : group.members)
    record.add_members(member);
  for (const std::string &cloned : group.cloned)
    record.add_cloned(cloned);
  record.set_operands(group.numOperands);
  record.set_results(group.numResults);
  record.set_executable(group.executableHash);
  for (const std::string &read : group.reads)
    record.add_reads(read);
  for (int64_t index : group.returns)
    record.add_returns(index);
  record.set_root_shape_class(group.rootShapeClass);
  record.set_flops(group.flops);
  record.set_bytes_read(group.bytesRead);
  record.set_bytes_written(group.bytesWritten);
}

results::CompileStats toRecord(const CompileStats &stats) {
  results::CompileStats record;
  record.set_model(stats.model);
  addOptions(stats.options, record);
  record.set_dispatches(stats.dispatches);
  record.set_executables(stats.executables);
  record.set_fills(stats.fills);
  record.set_copies(stats.copies);
  record.set_generic_before(stats.genericBefore);
  record.set_generic_after(stats.genericAfter);
  record.set_transient_bytes(stats.transientBytes);
  for (const DispatchGroupStats &group : stats.groups)
    addGroup(group, *record.add_groups());
  // Absent without data tiling, so other results keep their form.
  if (!stats.setEncodings)
    return record;
  results::EncodingStats &encodings = *record.mutable_encodings();
  encodings.set_set_encodings(stats.setEncodings);
  for (const UnhoistedEncoding &unhoisted : stats.unhoistedEncodings) {
    results::UnhoistedEncoding &entry = *encodings.add_unhoisted_encodings();
    entry.set_op(unhoisted.op);
    entry.set_dispatch(unhoisted.dispatch);
    entry.set_source(unhoisted.source);
  }
  return record;
}

json::Value toJson(const CompileStats &stats) {
  return protoToJson(toRecord(stats));
}

google::protobuf::Struct currentProvenanceRecord() {
  std::string text;
  raw_string_ostream os(text);
  os << Provenance::current().toJson();
  google::protobuf::Struct record;
  cantFail(jsonToProto(text, record));
  return record;
}

} // namespace dispatchlab
