#!/bin/sh
# dump_dom.sh URL: the DOM of URL after its scripts ran, from headless
# Chromium (Debian's chromium, installed by scripts/setup.sh). A missing
# browser is an error, not a skip: the HTML reports are only tested here.
set -eu
browser=/usr/bin/chromium
if [ ! -x "$browser" ]; then
  echo "dump_dom.sh: $browser not found; scripts/setup.sh installs the Debian package chromium" >&2
  exit 1
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# No network, no first-run or background work: the page must stand alone.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
  --no-first-run --disable-background-networking --disable-component-update \
  --disable-sync --host-resolver-rules="MAP * ~NOTFOUND" \
  --user-data-dir="$profile" --dump-dom "$1" 2>"$profile/stderr" ||
  { echo "dump_dom.sh: chromium failed on $1:" >&2; tail -n 5 "$profile/stderr" >&2; exit 1; }
