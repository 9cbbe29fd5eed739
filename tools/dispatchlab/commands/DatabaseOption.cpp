//===- DatabaseOption.cpp - the result database every command uses --------===//

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "tools/dispatchlab/commands/CoordinatorCommand.h"
#include "tools/dispatchlab/commands/DiffCommand.h"
#include "tools/dispatchlab/commands/JobsCommand.h"
#include "tools/dispatchlab/commands/QueryCommand.h"
#include "tools/dispatchlab/commands/ReportCommand.h"
#include "tools/dispatchlab/commands/ReproduceCommand.h"
#include "tools/dispatchlab/commands/ShowCommand.h"
#include "tools/dispatchlab/commands/SweepCommand.h"
#include "tools/dispatchlab/commands/SweepsCommand.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace cl = llvm::cl;

namespace dispatchlab {

std::string getDefaultDatabasePath() {
  if (std::optional<std::string> path =
          llvm::sys::Process::GetEnv("DISPATCHLAB_DB"))
    return *path;
  llvm::SmallString<128> path;
  if (std::optional<std::string> data =
          llvm::sys::Process::GetEnv("XDG_DATA_HOME");
      data && !data->empty())
    path = *data;
  else if (llvm::sys::path::home_directory(path))
    llvm::sys::path::append(path, ".local", "share");
  llvm::sys::path::append(path, "dispatchlab", "dispatchlab.db");
  return std::string(path);
}

cl::opt<std::string> databasePath(
    "db",
    cl::desc("Result database (default: $DISPATCHLAB_DB, else "
             "$XDG_DATA_HOME/dispatchlab/dispatchlab.db, XDG_DATA_HOME "
             "defaulting to ~/.local/share)"),
    cl::value_desc("FILE"), cl::init(getDefaultDatabasePath()),
    cl::sub(getSweepSubcommand()), cl::sub(getCoordinatorSubcommand()),
    cl::sub(getQuerySubcommand()), cl::sub(getReportSubcommand()),
    cl::sub(getShowSubcommand()), cl::sub(getDiffSubcommand()),
    cl::sub(getReproduceSubcommand()), cl::sub(getJobsSubcommand()),
    cl::sub(getSweepsSubcommand()));

} // namespace dispatchlab
