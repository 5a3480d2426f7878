#!/usr/bin/env bash
# Parse throughput of gpuinterp against mlir-opt on one large generated file:
#   bench/parse.sh [RUNS] [MB]      (defaults: 7 runs, 12 MB)
# Writes build/bench/big.mlir with bench/gen_mlir.py (once per size), then runs, alternating,
#   build/gpuinterp --emit=mlir big.mlir > /dev/null
#   mlir-opt --mlir-disable-threading big.mlir > /dev/null
# RUNS times each under /usr/bin/time, and prints the medians of wall time and peak RSS, the
# throughput in MB/s (file size / median wall time) and gpuinterp's ratio to mlir-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-7}
mb=${2:-12}
gpuinterp=${GPUINTERP:-build/gpuinterp}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
out=build/bench
big=$out/big-$mb.mlir
mkdir -p "$out"
[ -x /usr/bin/time ] || { echo "parse.sh: needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
[ -x "$gpuinterp" ] || ninja "$gpuinterp" >/dev/null
[ -s "$big" ] || python3 bench/gen_mlir.py --mb "$mb" > "$big"
bytes=$(stat -c %s "$big")

# Both must accept the file, or the timings mean nothing.
"$gpuinterp" --emit=mlir "$big" > /dev/null
"$mlir_opt" --mlir-disable-threading "$big" > /dev/null

measure() {  # measure LOG CMD...: appends "seconds kilobytes" of one run to LOG
  local log=$1
  shift
  /usr/bin/time -f '%e %M' -a -o "$log" "$@" > /dev/null
}
rm -f "$out/gpuinterp.times" "$out/mlir-opt.times"
for ((i = 0; i < runs; i++)); do
  measure "$out/gpuinterp.times" "$gpuinterp" --emit=mlir "$big"
  measure "$out/mlir-opt.times" "$mlir_opt" --mlir-disable-threading "$big"
done

python3 - "$bytes" "$runs" "$out/gpuinterp.times" "$out/mlir-opt.times" <<'PY'
import statistics, sys
size, runs = int(sys.argv[1]), int(sys.argv[2])
def load(path):
    rows = [l.split() for l in open(path) if l.strip() and l[0].isdigit()]
    return statistics.median(float(r[0]) for r in rows), statistics.median(int(r[1]) for r in rows)
(gt, gm), (mt, mm) = load(sys.argv[3]), load(sys.argv[4])
mb = size / 1e6
print("file: %.1f MB (%d bytes), %d runs each, medians" % (mb, size, runs))
print("gpuinterp: %6.2f s  %8.1f MB/s  peak RSS %7.1f MB" % (gt, mb / gt, gm / 1024))
print("mlir-opt:  %6.2f s  %8.1f MB/s  peak RSS %7.1f MB" % (mt, mb / mt, mm / 1024))
print("ratio: gpuinterp throughput %.2fx mlir-opt's (target >= 3x), peak memory %.2fx (target < 1x)"
      % (mt / gt, gm / mm))
PY
