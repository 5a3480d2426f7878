#!/bin/bash
# Runs every program of the corpus (examples/, tests/lit/*/*.mlir) that uses the gpu host ops and
# runs clean on the simulator, in both forms (as written and as `gpuinterp --lower` lowers it), on
# a driver backend (cuda, or hip) against its fake driver, and compares what it prints (addresses
# aside). Programs with kernels are launched on the device (cuda: gpu.module kernels compiled to
# PTX by mlir-opt, and gpu.binary PTX; gpu.launch bodies outlined into such kernels first;
# hip: the same compiled to AMD code objects, and gpu.binary objects). The CUDA fake runs PTX
# kernels on the kernel engine, so on cuda their results are compared too; the HIP fake runs no
# kernel (AMD code objects), so there they are only launched: they must run without error. Either
# may be refused by name (a gpu.module or gpu.launch body that mlir-opt cannot compile, or that
# the backend does not compile; a launch with clusters; a body using a value no kernel parameter
# holds; an object the driver cannot
# load; PTX that calls libdevice's __nv_* functions, which mlir-opt links in only where it finds
# the CUDA toolkit: CUDA_HOME; on hip, a kernel compiled where ld.lld or ROCm's device libraries
# are missing). A program the device run rejects for a known reason (`known` below, with the error it
# gives) is counted apart. The cuda and hip tests themselves are left out (they test what
# differs, e.g. devices the machine lacks).
# usage: corpus.sh GPUINTERP DRIVER ROOT [BACKEND] (DRIVER: the fake, or libcuda.so.1 /
# libamdhip64.so on a machine with a GPU; BACKEND: cuda, the default, or hip).
# Prints one line per disagreement (and per known one) and a summary; exits 1 on any disagreement
# or unexpected failure, or when too few programs agree for the check to mean anything.
gpuinterp=$1 driver=$2 root=$3 backend=${4:-cuda}
vendor=$(echo "$backend" | tr a-z A-Z)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
agree=0 launched=0 refused=0 known=0 bad=0
scrub() { sed 's/0x[0-9a-f]*/ADDR/g' "$1"; }
# known NAME: the error the device run of NAME gives for a known reason (printed), else nothing.
known() {
  case $backend:$1 in
  # upstream's gpu.shuffle lowering gives shfl.sync the member mask of the first `width` lanes
  # (0xffffffff >> (32 - width)), so with a width of 8 and 16 threads, lanes 8 to 15 execute it
  # outside their mask: undefined in PTX, an error of the PTX engine (both forms: the program's
  # gpu.launch is outlined and compiled by the same lowering)
  "cuda:tests/lit/interp/gpu-shuffle.mlir" | "cuda:tests/lit/interp/gpu-shuffle.mlir (lowered)")
    echo "a thread outside the shuffle's member mask" ;;
  esac
}
check() { # check NAME FILE
  "$gpuinterp" --sched=serial --timeout=10 "$2" > "$tmp/sim" 2>/dev/null || return 0
  "$gpuinterp" --backend="$backend" --"$backend"-lib="$driver" --timeout=20 "$2" > "$tmp/dev" 2> "$tmp/err"
  local rc=$?
  local kernels=0
  grep -q 'gpu\.launch\|gpu\.func\|gpu\.binary\|LaunchKernel' "$2" && kernels=1
  local why
  why=$(known "$1")
  if [ $rc -ne 0 ] && [ -n "$why" ] && grep -q "$why" "$tmp/err"; then
    echo "KNOWN $1: $why"
    known=$((known + 1))
  elif [ $rc -ne 0 ]; then
    if [ $kernels = 1 ] && grep -q "could not compile gpu.module\|could not compile the gpu.launch body\|compiling a gpu.module for the $backend backend is not supported\|compiling a gpu.launch body for the $backend backend is not supported\|with cluster sizes cannot run on the $backend backend\|cannot be passed to a kernel on the $backend backend\|which the $backend backend cannot load\|a call of the external function '__nv_\|for the hip backend needs ld.lld\|calls ROCm device library functions" "$tmp/err"; then
      refused=$((refused + 1))
    else
      echo "FAIL $1 (exit $rc): $(grep -m1 error "$tmp/err")"
      bad=$((bad + 1))
    fi
  elif diff <(scrub "$tmp/sim") <(scrub "$tmp/dev") > /dev/null; then
    agree=$((agree + 1))
  elif [ $kernels = 1 ] && [ "$backend" = hip ]; then
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
if [ "$backend" = hip ]; then
  echo "$backend corpus: $agree agree, $launched launched (kernels the fake does not run)," \
    "$refused refused (kernels), $known known, $bad bad"
else
  echo "$backend corpus: $agree agree, $refused refused (kernels), $known known, $bad bad"
fi
# on cuda the programs with kernels agree too
floor=40
[ "$backend" = cuda ] && floor=80
[ $bad -eq 0 ] && [ $agree -ge $floor ]
