#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (GoogleTest + lit) via ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j2
