"""Prints each column's type as pandas.read_csv would infer it (pandas is
not installed): int, float, bool, str, or empty when every cell is empty.
With --json, the types of the JSON values per field of a list of records
(at KEY, a dotted path into the document)."""
import csv
import json
import sys


def cell_type(text):
    for kind, parse in (("int", int), ("float", float)):
        try:
            parse(text)
            return kind
        except ValueError:
            pass
    return "bool" if text in ("true", "false", "True", "False") else "str"


def csv_types(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for column in rows[0].keys():
        kinds = {cell_type(row[column]) for row in rows if row[column] != ""}
        if kinds == {"int", "float"}:
            kinds = {"float"}
        print(f"{column}:{'/'.join(sorted(kinds)) or 'empty'}")


def json_types(path, key):
    document = json.load(open(path))
    for part in key.split(".") if key else []:
        document = document[part]
    kinds = {}
    for record in document:
        for field, value in record.items():
            kinds.setdefault(field, set()).add(type(value).__name__)
    for field, names in kinds.items():
        print(f"{field}:{'/'.join(sorted(names))}")


if sys.argv[1] == "--json":
    json_types(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
else:
    csv_types(sys.argv[1])
