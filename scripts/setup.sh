#!/usr/bin/env bash
# Installs every Debian package dispatchlab needs, then configures and builds.
# Idempotent: packages already present are skipped by apt, the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build git pkg-config
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libsqlite3-dev libonnx-dev openssl
  libgtest-dev libgmock-dev libbenchmark-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev
  chromium graphviz
)
# Opt-in: only scripts/bench_vs_reference.sh needs PyTorch and OpenBLAS, and
# only the scripts regenerating test inputs (tests/*/inputs/make_*.py) numpy.
if [ "${DISPATCHLAB_SETUP_BENCH:-0}" = 1 ]; then
  PACKAGES+=(python3-torch python3-torchvision python3-onnx libopenblas-dev
    python3-numpy)
fi
# Opt-in: scripts/bench_vs_ort.sh runs ONNX Runtime through its npm package.
if [ "${DISPATCHLAB_SETUP_ORT:-0}" = 1 ]; then
  PACKAGES+=(python3-onnx python3-numpy)
  # A machine may have Node.js from elsewhere, whose nodejs package
  # conflicts with Debian's npm.
  command -v npm >/dev/null || PACKAGES+=(nodejs npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# onnxruntime-node ships ONNX Runtime's CPU library; its install script would
# fetch GPU extras from a host this machine cannot reach.
if [ "${DISPATCHLAB_SETUP_ORT:-0}" = 1 ]; then
  npm ci --ignore-scripts --no-audit --no-fund --prefix scripts/ort
fi

if [ "${DISPATCHLAB_SETUP_NO_BUILD:-0}" != 1 ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j2
fi
