//===- QueryCommand.cpp - `dispatchlab query` -----------------------------===//
//
// Ad-hoc SQL over the result database, opened read-only: a report someone
// needs once should not need a new subcommand, and must not change the data.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/QueryCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Formatters.h"
#include "results/ResultStore.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace dispatchlab {

cl::SubCommand &getQuerySubcommand() {
  static cl::SubCommand command(
      "query", "Run one read-only SQL statement on the result database");
  return command;
}

namespace {
cl::opt<std::string> sql(cl::Positional, cl::desc("\"SQL\""), cl::Required,
                         cl::sub(getQuerySubcommand()));
cl::opt<std::string> format("format", cl::desc("table or csv"),
                            cl::value_desc("FORMAT"), cl::init("table"),
                            cl::sub(getQuerySubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab query");
}
} // namespace

int runQueryCommand() {
  std::optional<OutputFormat> output = parseOutputFormat(format);
  if (!output ||
      (*output != OutputFormat::Table && *output != OutputFormat::Csv)) {
    error() << "unknown --format '" << format << "' (table or csv)\n";
    return 2;
  }
  std::optional<ResultStore> store;
  try {
    store.emplace(databasePath, ResultStore::Access::ReadOnly);
  } catch (const StoreError &e) {
    error() << e.what() << "\n";
    return 1;
  }
  try {
    Statement &statement = store->prepare(sql);
    // Refused before it runs, with a clearer word than SQLite's "attempt to
    // write a readonly database".
    if (!statement.isReadOnly()) {
      error() << "only read-only statements are allowed (the database is "
                 "opened read-only)\n";
      return 1;
    }
    TextGrid grid;
    for (int i = 0; i < statement.columnCount(); ++i)
      grid.header.push_back(statement.columnName(i));
    grid.numeric.assign(grid.header.size(), false);
    while (statement.step()) {
      std::vector<std::string> row;
      for (int i = 0; i < statement.columnCount(); ++i)
        row.push_back(statement.isNull(i) ? "NULL" : statement.getText(i));
      grid.rows.push_back(std::move(row));
    }
    statement.reset();
    if (!grid.header.empty())
      printGrid(grid, *output, llvm::outs());
  } catch (const EmptyStatementError &e) {
    error() << e.what() << "\n";
    return 1;
  } catch (const StoreError &) {
    error() << store->lastError() << "\n";
    return 1;
  }
  return 0;
}

} // namespace dispatchlab
