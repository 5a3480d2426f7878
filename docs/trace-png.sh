#!/bin/sh
# trace-png.sh — renders the Chrome trace of examples/race.mlir in speedscope under headless
# Chromium and writes docs/trace.png, the picture in docs/tutorial.md.
#   Needs: chromium (Debian), speedscope (`npm i -g speedscope`), python3, build/gpuinterp.
# speedscope loads the trace over HTTP (a file:// fetch never finishes under --headless), so a
# local python3 http.server serves both for the time of the screenshot.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
cp -r "$(npm root -g)/speedscope/dist/release/." "$tmp/"
build/gpuinterp --trace="$tmp/race.json" --trace-format=chrome examples/race.mlir >/dev/null 2>&1 || true
port=${PORT:-8765}
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp" >/dev/null 2>&1 &
server=$!
trap 'kill $server; rm -rf "$tmp"' EXIT
sleep 1
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --window-size=1200,260 \
    --virtual-time-budget=4000 --screenshot="$PWD/docs/trace.png" \
    "http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/race.json&title=race.json" \
    >/dev/null 2>&1
