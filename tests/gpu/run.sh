#!/bin/bash
# The GPU check, for a machine with an NVIDIA GPU, its driver and the CUDA toolkit, gcc and ninja
# (no MLIR tools, no lit or FileCheck; nothing is installed). From the repository root:
#   tests/gpu/run.sh
# 1. builds build/gpuinterp with ninja (the build needs no MLIR tool, toolkit or GPU);
# 2. runs every program of tests/gpu/corpus/ (kernels compiled to PTX gpu.binary files by
#    mlir-opt beforehand, corpus/regen.sh) on --backend=sim (serial) and --backend=cuda, and
#    compares each output, addresses scrubbed, with the program's .expected (the simulator's
#    output when the corpus was made) using diff: "PASS name" or "FAIL name (sim|cuda)";
# 3. runs compute-sanitizer --tool racecheck on the race-* programs and on a race-free control
#    (reduce-shared), when compute-sanitizer is there, and compares its verdict (hazards found or
#    not) with the simulator's race report: "RACECHECK name: sim race, racecheck race: agree";
# 4. times the bench-* programs on both backends (median of GPU_RUN_REPS runs, default 3) and
#    prints the simulator-to-GPU ratios of the whole run (parse, compile, device set-up, run) and
#    of the kernels' own time (from each run's trace: on the GPU, CUDA event timing).
# Ends with a summary line; exit 0 when every comparison agreed, 1 otherwise. Everything is
# bounded so that the script ends within 4 minutes (GPU_RUN_BUDGET seconds, default 230).
# Overrides, to run the script's logic elsewhere (tests/lit/gpu/run-sh.test does, on the fake
# driver): GPUINTERP (a built gpuinterp: no build), GPUINTERP_CUDA_LIB (the driver library),
# COMPUTE_SANITIZER (the sanitizer; "none": skip), GPU_RUN_CORPUS (another folder of programs),
# GPU_RUN_REPS, GPU_RUN_BUDGET.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${GPU_RUN_CORPUS:-$here/corpus}
start=$(date +%s)
budget=${GPU_RUN_BUDGET:-230}
reps=${GPU_RUN_REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 agree=0 disagree=0 skipped=0

left() { echo $((budget - ($(date +%s) - start))); }
# bounded CMD...: runs CMD with what is left of the budget (at most 60 s); 124 when cut off
bounded() {
  local t
  t=$(left)
  [ "$t" -gt 60 ] && t=60
  if [ "$t" -le 0 ]; then return 124; fi
  timeout "$t" "$@"
}
scrub() { sed 's/0x[0-9a-f]*/ADDR/g' "$1"; }

# 1. build
if [ -n "${GPUINTERP:-}" ]; then
  gpuinterp=$GPUINTERP
  echo "build: using $gpuinterp"
else
  for tool in gcc ninja; do
    command -v "$tool" > /dev/null || { echo "build: $tool is missing"; exit 1; }
  done
  command -v mlir-opt > /dev/null || echo "build: no mlir-opt here (none is needed: the corpus is PTX already)"
  if ! bounded ninja -C "$root" build/gpuinterp > "$tmp/build.log" 2>&1; then
    tail -20 "$tmp/build.log"
    echo "build: FAILED"
    exit 1
  fi
  gpuinterp=$root/build/gpuinterp
  echo "build: ok ($(grep -c '^\[' "$tmp/build.log") steps)"
fi

# 2. outputs on both backends
for f in "$corpus"/*.mlir; do
  name=$(basename "$f")
  case $name in race-*) continue ;; esac
  ok=1
  bounded "$gpuinterp" --sched=serial "$f" > "$tmp/sim.out" 2> "$tmp/sim.err"
  rc_sim=$?
  bounded "$gpuinterp" --backend=cuda "$f" > "$tmp/cuda.out" 2> "$tmp/cuda.err"
  rc_cuda=$?
  for b in sim cuda; do
    rc=$rc_sim
    [ $b = cuda ] && rc=$rc_cuda
    if [ "$rc" -ne 0 ]; then
      echo "FAIL $name ($b): exit $rc: $(grep -m1 'error' "$tmp/$b.err")"
      ok=0
    elif ! diff <(scrub "$tmp/$b.out") "${f%.mlir}.expected" > "$tmp/$b.diff"; then
      echo "FAIL $name ($b): output differs from ${name%.mlir}.expected ('<' this run, '>' expected): $(grep -m1 '^[<>]' "$tmp/$b.diff" | cut -c1-160)"
      ok=0
    fi
  done
  if [ $ok = 1 ]; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done

# 3. races: the simulator's report against compute-sanitizer's racecheck
sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
  sanitizer=$(command -v compute-sanitizer || true)
  [ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
fi
for f in "$corpus"/race-*.mlir "$corpus"/reduce-shared.mlir; do
  [ -e "$f" ] || continue
  name=$(basename "$f")
  bounded "$gpuinterp" --sched=serial "$f" > /dev/null 2> "$tmp/race.err"
  sim=clean
  grep -q 'data race' "$tmp/race.err" && sim=race
  if [ -z "$sanitizer" ] || [ "$sanitizer" = none ]; then
    echo "RACECHECK $name: sim $sim, racecheck skipped (no compute-sanitizer)"
    skipped=$((skipped + 1))
    continue
  fi
  bounded "$sanitizer" --tool racecheck "$gpuinterp" --backend=cuda "$f" > "$tmp/rc.out" 2>&1
  hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$tmp/rc.out" | head -1)
  if [ -z "$hazards" ]; then
    echo "RACECHECK $name: sim $sim, racecheck gave no summary: $(grep -m1 -i 'error' "$tmp/rc.out")"
    disagree=$((disagree + 1))
    continue
  fi
  gpu=clean
  [ "$hazards" -gt 0 ] && gpu=race
  if [ $sim = $gpu ]; then
    echo "RACECHECK $name: sim $sim, racecheck $gpu ($hazards hazards): agree"
    agree=$((agree + 1))
  else
    echo "RACECHECK $name: sim $sim, racecheck $gpu ($hazards hazards): DISAGREE"
    disagree=$((disagree + 1))
  fi
done

# 4. time: simulator against GPU, medians of whole runs and of the kernels' own time (the ops of
# each run's Chrome trace: the simulator's kernel ops, the GPU's timed with CUDA events)
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
timed() { # timed BACKEND FILE: "SECONDS KERNEL_MS" of one run, or "-" when it failed
  local t0 t1
  t0=$(date +%s.%N)
  bounded "$gpuinterp" --backend="$1" --trace="$tmp/t.json" "$2" > /dev/null 2>&1 || { echo -; return; }
  t1=$(date +%s.%N)
  grep '"cat":"op"' "$tmp/t.json" | grep '"kind":"kernel"' | sed 's/.*"dur":\([0-9.]*\).*/\1/' |
    awk -v a="$t0" -v b="$t1" '{k += $1} END {printf "%.6f %.6f\n", b - a, k / 1000}'
}
for f in $(ls "$corpus"/bench-*.mlir 2> /dev/null | sort -V); do
  name=$(basename "$f" .mlir)
  if [ "$(left)" -lt 20 ]; then
    echo "TIME $name: skipped (out of time)"
    continue
  fi
  : > "$tmp/sim.t"
  : > "$tmp/cuda.t"
  for _ in $(seq "$reps"); do
    timed sim "$f" >> "$tmp/sim.t"
    timed cuda "$f" >> "$tmp/cuda.t"
  done
  if grep -q -- - "$tmp/sim.t" "$tmp/cuda.t"; then
    echo "TIME $name: a run failed"
    continue
  fi
  rs=$(cut -d' ' -f1 "$tmp/sim.t" | median)
  rc=$(cut -d' ' -f1 "$tmp/cuda.t" | median)
  ks=$(cut -d' ' -f2 "$tmp/sim.t" | median)
  kc=$(cut -d' ' -f2 "$tmp/cuda.t" | median)
  awk -v n="$name" -v rs="$rs" -v rc="$rc" -v ks="$ks" -v kc="$kc" -v r="$reps" 'BEGIN {
    printf "TIME %s: run sim %.3f s, cuda %.3f s, sim/cuda %.2fx; kernels sim %.3f ms, cuda %.3f ms, sim/cuda %.1fx (medians of %d)\n",
      n, rs, rc, (rc > 0 ? rs / rc : 0), ks, kc, (kc > 0 ? ks / kc : 0), r}'
done

echo "gpu corpus: $passed passed, $failed failed; racecheck: $agree agree, $disagree disagree, $skipped skipped; $(($(date +%s) - start)) s"
[ $failed -eq 0 ] && [ $disagree -eq 0 ]
