//===- ErrorChecks.h - llvm::Error checks for unit tests --------*- C++ -*-===//
//
// LLVM's Testing/Support matchers need the LLVMTestingSupport library, which
// the installed LLVM lacks: these are the few checks the tests of the result
// store and its callers need.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_TESTS_UNIT_ERRORCHECKS_H
#define DISPATCHLAB_TESTS_UNIT_ERRORCHECKS_H

#include "results/ResultStore.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace dispatchlab {

/// The value of `expected`. A failure ends the test binary with the error's
/// message: the test cannot go on without the value (ctest runs each test
/// in a process of its own, so only this test fails).
template <typename T> T checked(llvm::Expected<T> expected) {
  if (!expected)
    llvm::report_fatal_error(expected.takeError());
  return std::forward<T>(*expected);
}

/// Ends the test binary, as above, if `error` is a failure.
inline void checked(llvm::Error error) {
  if (error)
    llvm::report_fatal_error(std::move(error));
}

/// The StoreError `error` carries; nothing if it succeeded or is another
/// kind of error (whose message then fails the test).
inline std::optional<StoreError> storeErrorOf(llvm::Error error) {
  std::optional<StoreError> found;
  llvm::Error rest = llvm::handleErrors(
      std::move(error), [&](const StoreError &store) { found = store; });
  if (rest)
    ADD_FAILURE() << "not a StoreError: " << llvm::toString(std::move(rest));
  return found;
}

/// The StoreError of a failed `expected`; nothing if it succeeded.
template <typename T>
std::optional<StoreError> storeErrorOf(llvm::Expected<T> expected) {
  if (expected)
    return std::nullopt;
  return storeErrorOf(expected.takeError());
}

} // namespace dispatchlab

#endif // DISPATCHLAB_TESTS_UNIT_ERRORCHECKS_H
