#!/usr/bin/env python3
"""Fails when a directory includes a header of a layer it may not depend on.

The table below is the one definition of dispatchlab's layers (the picture
is in docs/architecture.md). A component may include its own headers and
those of the components it lists, and, through them, of what those list.
Usage: check_layering.py SOURCE_ROOT
"""
import os
import re
import sys

# component -> components it may include directly.
ALLOWED = {
    "core/support": [],
    "proto": [],
    "results": ["proto", "core/support"],
    "heuristics/options": [],
    "compat": [],
    "globalopt": ["heuristics/options", "compat", "core/support"],
    "heuristics": ["heuristics/options", "compat", "globalopt",
                   "core/support"],
    "core/analysis": ["heuristics", "core/support", "proto"],
    "core/onnx": ["core/support"],
    "core/codegen": ["core/analysis", "core/support"],
    "core/pipeline": ["heuristics", "core/onnx"],
    "core/runtime": ["core/codegen", "core/pipeline", "core/onnx",
                     "core/support"],
    "coordinator": ["core/support", "proto", "results", "heuristics/options"],
    "workers": ["coordinator"],
    "tools/dispatchlab": ["core/runtime", "core/pipeline", "core/analysis",
                          "workers", "results"],
    "tools/dispatchlab-opt": ["core/pipeline", "core/codegen"],
    "tests": ["tools/dispatchlab", "tools/dispatchlab-opt"],
}

# Files of heuristics/ that form the MLIR-free options library.
HEURISTIC_OPTIONS = {"heuristics/HeuristicOptions.h",
                     "heuristics/HeuristicOptions.cpp",
                     "heuristics/HeuristicKnobs.def"}

SOURCE_SUFFIXES = (".h", ".cpp", ".td", ".inc", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"|^\s*include\s+"([^"]+)"')


def component_of(path):
    """The component a repository-relative path belongs to, or None."""
    if path in HEURISTIC_OPTIONS:
        return "heuristics/options"
    best = None
    for component in ALLOWED:
        if path == component or path.startswith(component + "/"):
            if best is None or len(component) > len(best):
                best = component
    return best


def reachable(component):
    """The components `component` may include, itself among them."""
    seen, stack = {component}, [component]
    while stack:
        for dep in ALLOWED[stack.pop()]:
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen


def violations(root):
    for directory, _, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        if rel_dir.startswith((".", "build")):
            continue
        for name in files:
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.normpath(os.path.join(rel_dir, name))
            source = component_of(path)
            if source is None:
                continue
            allowed = reachable(source)
            with open(os.path.join(root, path), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = component_of(match.group(1) or match.group(2))
                    if target is not None and target not in allowed:
                        yield (f"{path}:{number}: {source} may not include "
                               f"{target} ({match.group(1) or match.group(2)})")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layering.py SOURCE_ROOT")
    found = list(violations(sys.argv[1]))
    for line in found:
        print(line, file=sys.stderr)
    if found:
        sys.exit(f"check_layering: {len(found)} include(s) cross the layers "
                 "of docs/architecture.md")


if __name__ == "__main__":
    main()
