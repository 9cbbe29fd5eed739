//===- VariantComparison.cpp - one model's dispatches under two variants --===//

#include "results/VariantComparison.h"

#include <map>
#include <set>

namespace dispatchlab {

namespace {
using MemberSet = std::set<std::string>;

MemberSet membersOf(const results::DispatchGroup &group) {
  return MemberSet(group.members().begin(), group.members().end());
}

/// Names of `from`'s dispatches whose member set `to` has no dispatch with.
std::vector<std::string> changedDispatches(const results::CompileStats &from,
                                           const results::CompileStats &to) {
  std::set<MemberSet> kept;
  for (const results::DispatchGroup &group : to.groups())
    kept.insert(membersOf(group));
  std::vector<std::string> changed;
  for (const results::DispatchGroup &group : from.groups())
    if (!kept.count(membersOf(group)))
      changed.push_back(group.name());
  return changed;
}

/// Member op -> the dispatch holding it.
std::map<std::string, std::string>
placementOf(const results::CompileStats &stats) {
  std::map<std::string, std::string> placement;
  for (const results::DispatchGroup &group : stats.groups())
    for (const std::string &member : group.members())
      placement.emplace(member, group.name());
  return placement;
}
} // namespace

VariantComparison compareVariants(const results::CompileStats &a,
                                  const results::CompileStats &b) {
  VariantComparison comparison;
  comparison.changedInA = changedDispatches(a, b);
  comparison.changedInB = changedDispatches(b, a);
  std::set<std::string> changedA(comparison.changedInA.begin(),
                                 comparison.changedInA.end());
  std::set<std::string> changedB(comparison.changedInB.begin(),
                                 comparison.changedInB.end());
  std::map<std::string, std::string> inA = placementOf(a), inB = placementOf(b);
  auto lookup = [](const std::map<std::string, std::string> &placement,
                   const std::string &op) -> std::optional<std::string> {
    auto it = placement.find(op);
    if (it == placement.end())
      return std::nullopt;
    return it->second;
  };
  auto add = [&](const std::string &op) {
    std::optional<std::string> dispatchA = lookup(inA, op),
                               dispatchB = lookup(inB, op);
    bool moved = !dispatchA || !dispatchB || changedA.count(*dispatchA) ||
                 changedB.count(*dispatchB);
    if (moved)
      comparison.moved.push_back({op, dispatchA, dispatchB});
  };
  for (const results::DispatchGroup &group : a.groups())
    for (const std::string &member : group.members())
      add(member);
  for (const results::DispatchGroup &group : b.groups())
    for (const std::string &member : group.members())
      if (!inA.count(member))
        add(member);
  return comparison;
}

} // namespace dispatchlab
