#!/usr/bin/env bash
# Parse throughput and memory of gpuinterp against mlir-opt on large generated files:
#   bench/parse.sh [RUNS] [MB...]      (defaults: 5 runs, at 1, 12 and 48 MB)
# For each size, writes build/bench/big-MB.mlir with bench/gen_mlir.py (once), then runs,
# alternating,
#   build/gpuinterp --emit=mlir big.mlir > /dev/null
#   mlir-opt --mlir-disable-threading big.mlir > /dev/null
# RUNS times each under /usr/bin/time, and prints the medians of wall time and peak RSS, the
# throughput in MB/s (file size / median wall time), peak RSS per input byte, and one ratio line
# per size: gpuinterp's throughput and memory against mlir-opt's, with the targets (throughput at
# least 3x, memory below mlir-opt's).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 12 48)
gpuinterp=${GPUINTERP:-build/gpuinterp}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
out=build/bench
mkdir -p "$out"
[ -x /usr/bin/time ] || { echo "parse.sh: needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
[ -x "$gpuinterp" ] || ninja "$gpuinterp" >/dev/null

measure() {  # measure LOG CMD...: appends "seconds kilobytes" of one run to LOG
  local log=$1
  shift
  /usr/bin/time -f '%e %M' -a -o "$log" "$@" > /dev/null
}

summaries=()
for mb in "${sizes[@]}"; do
  big=$out/big-$mb.mlir
  [ -s "$big" ] || python3 bench/gen_mlir.py --mb "$mb" > "$big"
  bytes=$(stat -c %s "$big")
  # Both must accept the file, or the timings mean nothing.
  "$gpuinterp" --emit=mlir "$big" > /dev/null
  "$mlir_opt" --mlir-disable-threading "$big" > /dev/null
  rm -f "$out/gpuinterp-$mb.times" "$out/mlir-opt-$mb.times"
  for ((i = 0; i < runs; i++)); do
    measure "$out/gpuinterp-$mb.times" "$gpuinterp" --emit=mlir "$big"
    measure "$out/mlir-opt-$mb.times" "$mlir_opt" --mlir-disable-threading "$big"
  done
  summaries+=("$(python3 - "$bytes" "$runs" "$out/gpuinterp-$mb.times" "$out/mlir-opt-$mb.times" <<'PY'
import statistics, sys
size, runs = int(sys.argv[1]), int(sys.argv[2])
def load(path):
    rows = [l.split() for l in open(path) if l.strip() and l[0].isdigit()]
    return statistics.median(float(r[0]) for r in rows), statistics.median(int(r[1]) for r in rows)
(gt, gm), (mt, mm) = load(sys.argv[3]), load(sys.argv[4])
mb = size / 1e6
print("file: %.1f MB (%d bytes), %d runs each, medians" % (mb, size, runs))
for name, t, m in (("gpuinterp", gt, gm), ("mlir-opt ", mt, mm)):
    print("%s %6.2f s  %8.1f MB/s  peak RSS %7.1f MB  (%.1f bytes per input byte)"
          % (name, t, mb / max(t, 0.005), m / 1024, m * 1024 / size))
print("ratio at %.0f MB: gpuinterp throughput %.2fx mlir-opt's (target >= 3x), peak memory %.2fx (target < 1x)"
      % (mb, mt / max(gt, 0.005), gm / mm))
PY
)")
  echo "${summaries[-1]}"
  echo
done
echo "summary:"
for s in "${summaries[@]}"; do
  grep '^ratio' <<< "$s"
done
