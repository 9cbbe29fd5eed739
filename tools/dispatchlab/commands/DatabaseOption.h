//===- DatabaseOption.h - the result database every command uses -*- C++
//-*-===//

#ifndef DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DATABASEOPTION_H
#define DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DATABASEOPTION_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace dispatchlab {

/// `--db FILE` of sweep, coordinator, query, report, show, diff, reproduce,
/// jobs and sweeps: one option, one default.
extern llvm::cl::opt<std::string> databasePath;

/// $DISPATCHLAB_DB when set, else dispatchlab/dispatchlab.db under
/// $XDG_DATA_HOME (~/.local/share when that is unset): a data directory of
/// the user's, never the source tree.
std::string getDefaultDatabasePath();

} // namespace dispatchlab

#endif // DISPATCHLAB_TOOLS_DISPATCHLAB_COMMANDS_DATABASEOPTION_H
