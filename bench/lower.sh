#!/usr/bin/env bash
# Cost of our lowering and of the differential check, on large programs of gpu host ops:
#   bench/lower.sh [RUNS] [SIZE...]      (defaults: 5 runs; sizes 100 1000 10000 blocks)
# bench/gen_gpu_host.py writes build/bench/gpu-host-N.mlir (N blocks of wait/alloc/memcpy/wait/
# memset/memcpy/dealloc/wait, every async op with one dependency so MLIR 22 lowers them all).
# Part 1 times, alternating, RUNS runs of
#   build/gpuinterp --lower FILE -o /dev/null
#   mlir-opt --mlir-disable-threading --gpu-to-llvm FILE -o /dev/null
# at each SIZE and prints both medians and the ratio (target: gpuinterp at least 5x faster).
# Part 2, at DIFF_SIZES (default 30 300 3000 blocks), times one `build/gpuinterp --diff FILE`
# against the plain runs it stands for: for each of the 10 schedules serial, threads and
# random:1..8, `gpuinterp --sched=S FILE` plus `gpuinterp --lower FILE -o low.mlir;
# gpuinterp --sched=S low.mlir`, summed; medians of RUNS rounds, each round the sum then the
# check (target: --diff at most 1.3x the sum). Wall times from python's perf_counter.
# A part that cannot run yet (no --lower, no --diff) says so, and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
[ $# -gt 0 ] && shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 10000)
read -r -a diff_sizes <<< "${DIFF_SIZES:-30 300 3000}"
gpuinterp=${GPUINTERP:-build/gpuinterp}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
out=build/bench
mkdir -p "$out"
[ -x "$gpuinterp" ] || ninja -C . "$gpuinterp" > /dev/null
[ -x "$mlir_opt" ] || { echo "lower.sh: needs $mlir_opt (Debian package: mlir-22-tools)" >&2; exit 2; }

file_for() {  # file_for N: the generated program of N blocks, written once per generator version
  local f=$out/gpu-host-$1.mlir
  if [ ! -s "$f" ] || [ bench/gen_gpu_host.py -nt "$f" ]; then
    python3 bench/gen_gpu_host.py "$1" > "$f"
  fi
  echo "$f"
}

# Every file must be accepted by mlir-opt 22 (and run on the simulator, for part 2), or the
# timings mean nothing.
for n in "${sizes[@]}" "${diff_sizes[@]}"; do
  "$mlir_opt" --mlir-disable-threading --gpu-to-llvm "$(file_for "$n")" -o /dev/null
done
for n in "${diff_sizes[@]}"; do
  "$gpuinterp" --sched=serial "$(file_for "$n")" > /dev/null
done

# What this build can do.
can_lower=1
lower_msg=$("$gpuinterp" --lower "$(file_for 1)" -o /dev/null 2>&1) || can_lower=0
can_diff=1
"$gpuinterp" --help 2>&1 | grep -q -- '--diff' || can_diff=0

files=()
for n in "${sizes[@]}"; do files+=("$(file_for "$n")"); done
dfiles=()
for n in "${diff_sizes[@]}"; do dfiles+=("$(file_for "$n")"); done

python3 - "$runs" "$gpuinterp" "$mlir_opt" "$can_lower" "$can_diff" "$out" \
  "${lower_msg%%$'\n'*}" "${files[*]}" "${dfiles[*]}" <<'PY'
import os, statistics, subprocess, sys, time
runs, gi, opt = int(sys.argv[1]), sys.argv[2], sys.argv[3]
can_lower, can_diff, out, lower_msg = sys.argv[4] == "1", sys.argv[5] == "1", sys.argv[6], sys.argv[7]
files, dfiles = sys.argv[8].split(), sys.argv[9].split()
scheds = ["serial", "threads"] + ["random:%d" % s for s in range(1, 9)]

def wall(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit("lower.sh: %s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stderr.decode()[-2000:]))
    return dt

def blocks(f):
    return int(os.path.basename(f).split("-")[-1].split(".")[0])

status = 0
print("part 1: lowering, %d runs each, alternating, median wall time" % runs)
if not can_lower:
    print("  cannot time %s --lower: %s" % (gi, lower_msg or "it fails"))
    print("  (mlir-opt alone is timed, for reference)")
    status = 1
for f in files:
    g, m = [], []
    for _ in range(runs):
        if can_lower:
            g.append(wall([gi, "--lower", f, "-o", "/dev/null"]))
        m.append(wall([opt, "--mlir-disable-threading", "--gpu-to-llvm", f, "-o", "/dev/null"]))
    mm = statistics.median(m)
    head = "  %6d blocks (%5.2f MB):" % (blocks(f), os.path.getsize(f) / 1e6)
    if can_lower:
        gm = statistics.median(g)
        print("%s gpuinterp --lower %7.3f s  mlir-opt --gpu-to-llvm %7.3f s  ratio %5.1fx"
              " (target >= 5x)" % (head, gm, mm, mm / gm))
    else:
        print("%s gpuinterp --lower      n/a   mlir-opt --gpu-to-llvm %7.3f s" % (head, mm))

print("part 2: --diff against the 10 runs of each form it makes (%s), %d rounds, medians"
      % (", ".join(scheds[:3]) + ", ..., " + scheds[-1], runs))
if not (can_diff and can_lower):
    why = []
    if not can_diff:
        why.append("%s --help lists no --diff" % gi)
    if not can_lower:
        why.append("--lower fails")
    print("  cannot run: %s" % "; ".join(why))
    sys.exit(1)
for f in dfiles:
    low = os.path.join(out, "gpu-host-%d.low.mlir" % blocks(f))
    plain, diff = [], []
    for _ in range(runs):
        s = 0.0
        for sc in scheds:
            s += wall([gi, "--sched=" + sc, f])
            s += wall([gi, "--lower", f, "-o", low])
            s += wall([gi, "--sched=" + sc, low])
        plain.append(s)
        diff.append(wall([gi, "--diff", f]))
    pm, dm = statistics.median(plain), statistics.median(diff)
    print("  %6d blocks: --diff %7.3f s  sum of plain runs %7.3f s  ratio %4.2fx (target <= 1.3x)"
          % (blocks(f), dm, pm, dm / pm))
sys.exit(status)
PY
