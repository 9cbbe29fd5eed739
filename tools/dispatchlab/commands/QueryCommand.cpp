//===- QueryCommand.cpp - `dispatchlab query` -----------------------------===//
//
// Ad-hoc SQL over the result database, opened read-only: a report someone
// needs once should not need a new subcommand, and must not change the data.
// CSV and JSON keep SQLite's types (numbers as numbers, NULL as an empty
// field or null) for a notebook to load.
//
//===----------------------------------------------------------------------===//

#include "tools/dispatchlab/commands/QueryCommand.h"

#include "tools/dispatchlab/commands/DatabaseOption.h"

#include "results/Exports.h"
#include "results/Formatters.h"
#include "results/ResultStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
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
cl::opt<std::string> format("format", cl::desc("table, csv or json"),
                            cl::value_desc("FORMAT"), cl::init("table"),
                            cl::sub(getQuerySubcommand()));

llvm::raw_ostream &error() {
  return llvm::WithColor::error(llvm::errs(), "dispatchlab query");
}

/// The current row's values with their SQLite types; blobs as hex text.
std::vector<TypedValue> typedRow(const Statement &statement) {
  std::vector<TypedValue> row;
  for (int i = 0; i < statement.columnCount(); ++i) {
    switch (statement.valueType(i)) {
    case Statement::ValueType::Integer:
      row.push_back(statement.getInt(i));
      break;
    case Statement::ValueType::Real:
      row.push_back(statement.getDouble(i));
      break;
    case Statement::ValueType::Text:
      row.push_back(statement.getText(i));
      break;
    case Statement::ValueType::Blob:
      row.push_back(llvm::toHex(statement.getText(i), /*LowerCase=*/true));
      break;
    case Statement::ValueType::Null:
      row.push_back(std::monostate());
      break;
    }
  }
  return row;
}

/// The rows of a read-only statement, typed.
llvm::Expected<TypedTable> readRows(Statement &statement) {
  TypedTable table;
  for (int i = 0; i < statement.columnCount(); ++i)
    table.columns.push_back(statement.columnName(i));
  if (llvm::Error error = statement.forEachRow(
          [&](const Statement &row) { table.rows.push_back(typedRow(row)); }))
    return std::move(error);
  return table;
}

/// A value as the table shows it: NULL spelled out, SQLite's own digits.
struct DisplayText {
  std::string operator()(std::monostate) const { return "NULL"; }
  std::string operator()(bool flag) const { return flag ? "1" : "0"; }
  std::string operator()(int64_t integer) const {
    return std::to_string(integer);
  }
  std::string operator()(double number) const { return roundTripText(number); }
  std::string operator()(const std::string &text) const { return text; }
};

/// The table as people read it: NULL spelled out, numbers right-aligned.
TextGrid displayGrid(const TypedTable &table) {
  TextGrid grid;
  grid.header = table.columns;
  grid.numeric.assign(grid.header.size(), false);
  for (const std::vector<TypedValue> &values : table.rows) {
    std::vector<std::string> row;
    for (const TypedValue &value : values)
      row.push_back(std::visit(DisplayText(), value));
    grid.rows.push_back(std::move(row));
  }
  return grid;
}

/// The line for a statement that failed: SQLite's own message, without the
/// database's name (the user named it), unless `prepare` refused the SQL
/// text itself.
std::string queryFailure(const ResultStore &store, llvm::Error error) {
  return llvm::toString(
      llvm::handleErrors(std::move(error), [&](const StoreError &failure) {
        return llvm::createStringError(failure.getKind() ==
                                               StoreError::Kind::Sqlite
                                           ? store.lastError()
                                           : failure.getMessage());
      }));
}

int printRows(const TypedTable &table, OutputFormat output) {
  if (output == OutputFormat::Csv) {
    printTypedCsv(table, llvm::outs());
    return 0;
  }
  if (output == OutputFormat::Json) {
    llvm::Expected<llvm::json::Array> records = typedRecords(table);
    if (!records) {
      error() << llvm::toString(records.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(*records)))
                 << "\n";
    return 0;
  }
  printGrid(displayGrid(table), output, llvm::outs());
  return 0;
}
} // namespace

int runQueryCommand() {
  std::optional<OutputFormat> output = parseOutputFormat(format);
  if (!output ||
      (*output != OutputFormat::Table && *output != OutputFormat::Csv &&
       *output != OutputFormat::Json)) {
    error() << "unknown --format '" << format << "' (table, csv or json)\n";
    return 2;
  }
  llvm::Expected<std::unique_ptr<ResultStore>> store =
      ResultStore::open(databasePath, ResultStore::Access::ReadOnly);
  if (!store) {
    error() << llvm::toString(store.takeError()) << "\n";
    return 1;
  }
  llvm::Expected<Statement &> statement = (*store)->prepare(sql);
  if (!statement) {
    error() << queryFailure(**store, statement.takeError()) << "\n";
    return 1;
  }
  // Refused before it runs, with a clearer word than SQLite's "attempt to
  // write a readonly database".
  if (!statement->isReadOnly()) {
    error() << "only read-only statements are allowed (the database is "
               "opened read-only)\n";
    return 1;
  }
  llvm::Expected<TypedTable> table = readRows(*statement);
  if (!table) {
    error() << queryFailure(**store, table.takeError()) << "\n";
    return 1;
  }
  // A statement without columns (a PRAGMA that sets) prints nothing.
  if (table->columns.empty())
    return 0;
  return printRows(*table, *output);
}

} // namespace dispatchlab
