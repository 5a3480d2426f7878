#!/usr/bin/env bash
# PTX front end (ptx/) throughput and memory against ptxas on the same generated PTX:
#   bench/ptx-parse.sh [RUNS] [MB...]      (defaults: 5 runs, at 0.25, 1 and 4 MB)
# For each size, writes build/bench/ptx-MB.ptx with bench/gen_ptx.py (once), then runs,
# alternating,
#   build/bench/ptx_parse big.ptx REPEAT                (bench/ptx_parse.c: parse only, REPEAT times)
#   ptxas -arch=sm_90 big.ptx -o /dev/null              (NVIDIA's assembler: parse and compile)
# RUNS times each under /usr/bin/time, and prints the medians of CPU time (user + system: steadier
# than wall time on a shared machine) and peak RSS, the throughput in MB/s, and a ratio line per size. ptxas does far more than parse, so the ratio says
# what reading PTX costs next to the compile a driver would do on the same text, not which parser is
# faster. ptx_parse's time is per parse: its run's time over REPEAT (PTX_REPEAT, default 20). Needs ptxas (PTXAS, default /usr/local/cuda/bin/ptxas).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(0.25 1 4)
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
repeat=${PTX_REPEAT:-20}
out=build/bench
mkdir -p "$out"
[ -x /usr/bin/time ] || { echo "ptx-parse.sh: needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
[ -x "$ptxas" ] || { echo "ptx-parse.sh: needs ptxas at $ptxas (set PTXAS)" >&2; exit 2; }
gcc -std=c11 -D_GNU_SOURCE -I. -O2 -g bench/ptx_parse.c ptx/*.c -o "$out/ptx_parse"

measure() {  # measure LOG CMD...: appends "user-seconds system-seconds kilobytes" of one run to LOG
  local log=$1
  shift
  /usr/bin/time -f '%U %S %M' -a -o "$log" "$@" > /dev/null
}

for mb in "${sizes[@]}"; do
  big=$out/ptx-$mb.ptx
  [ -s "$big" ] || python3 bench/gen_ptx.py --mb "$mb" > "$big"
  bytes=$(stat -c %s "$big")
  # both must accept the file, or the timings mean nothing
  "$out/ptx_parse" "$big"
  "$ptxas" -arch=sm_90 "$big" -o /dev/null
  rm -f "$out/ptx_parse-$mb.times" "$out/ptxas-$mb.times"
  for ((i = 0; i < runs; i++)); do
    measure "$out/ptx_parse-$mb.times" "$out/ptx_parse" "$big" "$repeat"
    measure "$out/ptxas-$mb.times" "$ptxas" -arch=sm_90 "$big" -o /dev/null
  done
  python3 - "$bytes" "$runs" "$out/ptx_parse-$mb.times" "$out/ptxas-$mb.times" "$repeat" <<'PY'
import statistics, sys
size, runs, repeat = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[5])
def load(path):
    rows = [l.split() for l in open(path) if l.strip() and l[0].isdigit()]
    return statistics.median(float(r[0]) + float(r[1]) for r in rows), statistics.median(int(r[2]) for r in rows)
(pt, pm), (at, am) = load(sys.argv[3]), load(sys.argv[4])
pt /= repeat
mb = size / 1e6
print("file: %.2f MB (%d bytes), %d runs each (ptx_parse %d parses a run), medians" % (mb, size, runs, repeat))
for name, t, m in (("ptx_parse", pt, pm), ("ptxas    ", at, am)):
    print("%s %7.3f s CPU  %8.1f MB/s  peak RSS %7.1f MB  (%.1f bytes per input byte)"
          % (name, t, mb / max(t, 1e-6), m / 1024, m * 1024 / size))
print("ratio at %.2f MB: ptx_parse time %.4fx ptxas's, peak memory %.2fx"
      % (mb, max(pt, 1e-6) / at, pm / am))
PY
done
