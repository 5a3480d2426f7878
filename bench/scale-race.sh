#!/bin/sh
# bench/scale-race.sh [RUNS] - what race checking costs as programs grow.
#
# bench/gen_dag.py writes random race-free async DAG programs (copies, memsets and small kernels
# over a few buffers, one host wait at the end) of 1k, 10k and 100k ops (SIZES="..." to change),
# and an empty one (0 ops: parsing, start-up, the buffers). Each runs with and without race
# checking (--no-race-check, the peer) under --sched=serial and --sched=threads, RUNS times
# (default 5), alternating; the figures are medians:
#   time/op   whole-process CPU time (user + sys) less the empty program's, per op (the empty
#             program runs right after each timed run, and the differences' median is taken)
#   insn/op   instructions per op, the same way, from one run under valgrind --tool=callgrind
#             (perf stat -e instructions without valgrind; INSNS=0 skips this, it is slow);
#             serial only: under threads the workers' spin-waits are counted too, and valgrind,
#             which runs one thread at a time, makes them spin for minutes
#   peak RSS  "Maximum resident set size" of /usr/bin/time -v
# and the ratios against the targets: race checking at most 1.5x the time of --no-race-check at
# the largest size, time per op within 1.3x across sizes, peak RSS at most 2x the unchecked
# run's. CPU time, not wall time: the machine may be shared, and the load average is printed.
# GEN=strided runs bench/gen_order.py strided instead: KERNELS (default 200) kernels over a
# buffer of 32, 128 and 512 rows (SIZES), each kernel recording 2 x rows separate ranges; the
# figures are then per range recorded (2 x rows x KERNELS), which stays flat only if an access
# costs no more as the ranges an allocation holds grow.
# Needs build/gpuinterp (ninja; BIN=PATH times another build) and python3.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
GEN=${GEN:-dag}
KERNELS=${KERNELS:-200}
case $GEN in
  dag) SIZES=${SIZES:-"1000 10000 100000"} ;;
  strided) SIZES=${SIZES:-"32 128 512"} ;;
  *) echo "bench/scale-race.sh: GEN=$GEN is neither dag nor strided" >&2; exit 2 ;;
esac
INSNS=${INSNS:-1}
BIN=${BIN:-build/gpuinterp}
[ -x "$BIN" ] || { echo "bench/scale-race.sh: $BIN is missing (ninja builds it)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/scale-race.sh: /usr/bin/time is missing" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 0 $SIZES; do
  if [ "$GEN" = strided ]; then
    if [ "$n" = 0 ]; then
      python3 bench/gen_order.py strided 0 -o "$dir/dag$n.mlir"
    else
      python3 bench/gen_order.py strided "$KERNELS" --rows "$n" -o "$dir/dag$n.mlir"
    fi
  else
    python3 bench/gen_dag.py "$n" -o "$dir/dag$n.mlir"
  fi
  # every program must run clean, with the check on, before it is timed
  "$BIN" --sched=serial "$dir/dag$n.mlir" > /dev/null
done
INSN_TOOL=none
if [ "$INSNS" != 0 ]; then
  if command -v valgrind > /dev/null; then
    INSN_TOOL=callgrind
  elif command -v perf > /dev/null && perf stat -x, -e instructions true > /dev/null 2>&1; then
    INSN_TOOL=perf
  fi
fi
export BIN RUNS SIZES INSN_TOOL dir GEN KERNELS
exec python3 - <<'EOF'
import sys
sys.path.insert(0, "bench")
from timing import timed as bench_timed
import os, re, statistics, subprocess

BIN, RUNS, DIR, TOOL = os.environ["BIN"], int(os.environ["RUNS"]), os.environ["dir"], os.environ["INSN_TOOL"]
SIZES = [int(s) for s in os.environ["SIZES"].split()]
GEN, KERNELS = os.environ["GEN"], int(os.environ["KERNELS"])
# what a figure is per: an op, or (strided) a range recorded
UNITS = {n: 2 * n * KERNELS if GEN == "strided" else n for n in SIZES}
SCHEDS = ["serial", "threads"]
CHECKS = [("on", []), ("off", ["--no-race-check"])]


def cmd(n, sched, flags):
    return [BIN, "--sched=" + sched] + flags + [os.path.join(DIR, "dag%d.mlir" % n)]


def timed(c):
    """CPU seconds (user + sys) and peak RSS in KB of one run."""
    return bench_timed(c, DIR, "bench/scale-race.sh")


def insns(c):
    if TOOL == "callgrind":
        f = os.path.join(DIR, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + f] + c,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return int(re.search(r"^summary: (\d+)", open(f).read(), re.M).group(1))
    if TOOL == "perf":
        p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions"] + c,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        return int(p.stderr.strip().splitlines()[-1].split(",")[0])
    return None


if GEN == "strided":
    print("bench/scale-race.sh: %d strided kernels of 2 x rows ranges (bench/gen_order.py strided --rows), "
          "per range, median of %d runs, CPU time" % (KERNELS, RUNS))
else:
    print("bench/scale-race.sh: random async DAGs (bench/gen_dag.py), median of %d runs, CPU time" % RUNS)
print("  load average at start: %s (the machine may be shared: CPU time, not wall time)"
      % open("/proc/loadavg").read().split()[:3])
res = {}
for n in [0] + SIZES:
    for s in SCHEDS:
        samples = {k: [] for k, _ in CHECKS}
        for _ in range(RUNS):
            for k, f in CHECKS:  # alternating, so load changes hit both alike
                t, m = timed(cmd(n, s, f))
                # the empty program right after: a size's figure is the median of these
                # differences, so a change of load between sizes does not skew the small ones
                t0 = timed(cmd(0, s, f))[0] if n else 0.0
                samples[k].append((t, m, t - t0))
        for k, f in CHECKS:
            t = statistics.median(x[0] for x in samples[k])
            m = statistics.median(x[1] for x in samples[k])
            d = statistics.median(x[2] for x in samples[k])
            res[n, s, k] = [t, m, insns(cmd(n, s, f)) if s == "serial" else None, d]

print("  %7s  %-8s %-6s %10s %11s %10s" % ("rows" if GEN == "strided" else "ops", "sched", "check",
                                          "time/op", "insn/op", "peak RSS"))
for n in SIZES:
    for s in SCHEDS:
        for k, _ in CHECKS:
            t, m, i, d = res[n, s, k]
            i0 = res[0, s, k][2]
            u = UNITS[n]
            res[n, s, k][3:] = [d / u * 1e6, (i - i0) / u if i is not None else None]
            ins = "%11.0f" % res[n, s, k][4] if i is not None else "%11s" % "n/a"
            print("  %7d  %-8s %-6s %8.2f us %s %7.1f MB" % (n, s, k, res[n, s, k][3], ins, m / 1024))
print("  instructions: %s" % {"callgrind": "valgrind --tool=callgrind, one run",
                                "perf": "perf stat -e instructions, one run",
                                "none": "unavailable (no valgrind, no perf, or INSNS=0)"}[TOOL])
big = SIZES[-1]
print("targets (race checking on):")
for s in SCHEDS:
    on, off = res[big, s, "on"], res[big, s, "off"]
    per = [res[n, s, "on"][3] for n in SIZES]
    line = (("  %-8s overhead at %d " + ("rows" if GEN == "strided" else "ops") +
             " %.2fx (<= 1.5x), time/op max/min over sizes %.2fx (<= 1.3x), peak RSS %.2fx of unchecked (<= 2x)")
            % (s, big, on[0] / off[0], max(per) / min(per), on[1] / off[1]))
    if on[4] is not None:
        ins = [res[n, s, "on"][4] for n in SIZES]
        line += ", insn/op max/min %.2fx, insn overhead %.2fx" % (max(ins) / min(ins), on[4] / off[4])
    ok = on[0] / off[0] <= 1.5 and max(per) / min(per) <= 1.3 and on[1] / off[1] <= 2
    print(line + ("  ok" if ok else "  MISSED"))
print("  load average at end: %s" % open("/proc/loadavg").read().split()[:3])
EOF
