//===- Csv.h - RFC 4180 fields ----------------------------------*- C++ -*-===//
//
// The one reader and writer of CSV fields: reports write them, `reproduce`
// reads the published tables.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_RESULTS_CSV_H
#define DISPATCHLAB_RESULTS_CSV_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dispatchlab {

/// `text` as one field: quoted, with quotes doubled, when it holds a comma,
/// a quote or a line break; else as is.
std::string csvField(llvm::StringRef text);

/// The fields of one record (a line without its line break); a quoted field
/// may hold commas and doubled quotes.
std::vector<std::string> parseCsvRecord(llvm::StringRef line);

} // namespace dispatchlab

#endif // DISPATCHLAB_RESULTS_CSV_H
