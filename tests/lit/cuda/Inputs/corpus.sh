#!/bin/bash
# Runs every program of the corpus (examples/, tests/lit/*/*.mlir) that uses the gpu host ops and
# runs clean on the simulator, in both forms (as written and as `gpuinterp --lower` lowers it), on
# a driver backend (cuda, or hip) against its fake driver, and compares what it prints (addresses
# aside). Programs with kernels are launched on the device (cuda: gpu.module kernels compiled to
# PTX by mlir-opt; hip: gpu.binary objects only); the fake driver runs no kernel, so their results
# are not compared: they must run without error, or be refused by name (a gpu.launch body, which
# only the interpreter runs; a gpu.module that mlir-opt cannot compile, or that the backend does
# not compile; an object the driver cannot load). The cuda and hip tests themselves are left out
# (they test what differs, e.g. devices the machine lacks).
# usage: corpus.sh GPUINTERP DRIVER ROOT [BACKEND] (DRIVER: the fake, or libcuda.so.1 /
# libamdhip64.so on a machine with a GPU; BACKEND: cuda, the default, or hip).
# Prints one line per disagreement and a summary; exits 1 on any disagreement or unexpected
# failure, or when too few programs agree for the check to mean anything.
gpuinterp=$1 driver=$2 root=$3 backend=${4:-cuda}
vendor=$(echo "$backend" | tr a-z A-Z)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
agree=0 launched=0 refused=0 bad=0
scrub() { sed 's/0x[0-9a-f]*/ADDR/g' "$1"; }
check() { # check NAME FILE
  "$gpuinterp" --sched=serial --timeout=10 "$2" > "$tmp/sim" 2>/dev/null || return 0
  "$gpuinterp" --backend="$backend" --"$backend"-lib="$driver" --timeout=20 "$2" > "$tmp/dev" 2> "$tmp/err"
  local rc=$?
  local kernels=0
  grep -q 'gpu\.launch\|gpu\.func\|gpu\.binary\|LaunchKernel' "$2" && kernels=1
  if [ $rc -ne 0 ]; then
    if [ $kernels = 1 ] && grep -q "cannot run on the $vendor backend: only device code can\|could not compile gpu.module\|compiling a gpu.module for the $backend backend is not supported\|which the $backend backend cannot load" "$tmp/err"; then
      refused=$((refused + 1))
    else
      echo "FAIL $1 (exit $rc): $(grep -m1 error "$tmp/err")"
      bad=$((bad + 1))
    fi
  elif diff <(scrub "$tmp/sim") <(scrub "$tmp/dev") > /dev/null; then
    agree=$((agree + 1))
  elif [ $kernels = 1 ]; then
    launched=$((launched + 1))
  else
    echo "DIFFERS $1"
    bad=$((bad + 1))
  fi
}
for f in "$root"/examples/*.mlir "$root"/tests/lit/*/*.mlir; do
  case $f in */cuda/*|*/hip/*|*/bounds/*|*/fuzz/*|*/mutants/*|*/parse-errors/*|*/verify/*|*/roundtrip/*) continue ;; esac
  grep -q -- '--max-steps\|--timeout' "$f" && continue # programs that do not end by themselves
  grep -q 'gpu\.\(wait\|alloc\|memcpy\|memset\|dealloc\|launch\)\|mgpu' "$f" || continue
  name=${f#"$root"/}
  check "$name" "$f"
  "$gpuinterp" --lower "$f" -o "$tmp/low.mlir" 2>/dev/null && check "$name (lowered)" "$tmp/low.mlir"
done
echo "$backend corpus: $agree agree, $launched launched (kernels the fake does not run), $refused refused (kernels), $bad bad"
[ $bad -eq 0 ] && [ $agree -ge 40 ]
