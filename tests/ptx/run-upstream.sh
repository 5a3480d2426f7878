#!/usr/bin/env bash
# Runs a copy of MLIR's CUDA integration tests (llvm-project's mlir/test/Integration/GPU/CUDA;
# not part of this project) on the simulator, and prints a table: one row per test, a column for
# each way it ran, and the reason for every failure or skip.
#
#   tests/ptx/run-upstream.sh [-k KEEP_DIR] DIR
#
# For every DIR/**/*.mlir:
#   - skipped when it needs what the simulator will not have: tensor cores (wmma, mma, wgmma),
#     TMA (bulk tensor copies), thread-block clusters; or when its RUN line runs no program
#     (no mlir-runner / mlir-cpu-runner: the test checks the compiler's output);
#   - lowered with `mlir-opt -gpu-lower-to-nvvm-pipeline="cubin-format=isa ..."` in place of the
#     RUN line's pipeline, keeping the cubin-chip and cubin-features it names (a chip named
#     without features gets the oldest PTX ISA that chip needs: mlir-opt 22 targets PTX 6.0,
#     which sm_75 and later reject; when the RUN line has -gpu-async-region, the test is outlined
#     and made async first, since gpu-to-llvm lowers only the async forms of gpu.alloc and
#     gpu.memcpy inside async.execute; when it lowers the async dialect, the async passes
#     follow), so its kernels become PTX;
#   - run twice on the lowered file: `mlir-runner --shared-libs=libmgpusim.so,<runner utils>`
#     (and the async runtime when the RUN line names it; the RUN line's -O level, without which
#     the coroutines the async passes make do not compile) (column mlir-runner) and `gpuinterp` (column gpuinterp), each output checked with FileCheck
#     against the test's own CHECK lines (and --check-prefix, if the RUN line names one).
# A run passes when it exits 0 and FileCheck accepts its output (when the RUN line checks it at all).
# Exit status: 1 if any run failed.
# Both runs compile the PTX for the same kernel engine; what it does not run yet is a located error
# (at the PTX place), which the reason column quotes.
#
# -k KEEP_DIR keeps each test's lowered file and outputs there. Environment: GPUINTERP (default
# build/gpuinterp), MGPUSIM (default build/libmgpusim.so), LLVM_BIN (default /usr/lib/llvm-22/bin),
# MLIR_LIB (default /usr/lib/llvm-22/lib), TIMEOUT seconds per run (default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
keep=""
if [ "${1:-}" = -k ]; then
  keep=$2
  shift 2
fi
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: tests/ptx/run-upstream.sh [-k KEEP_DIR] DIR (a folder of mlir/test/Integration/GPU/CUDA tests)" >&2
  exit 2
fi
export RU_ROOT=$root RU_KEEP=$keep
export GPUINTERP=${GPUINTERP:-$root/build/gpuinterp} MGPUSIM=${MGPUSIM:-$root/build/libmgpusim.so}
export LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-22/bin} MLIR_LIB=${MLIR_LIB:-/usr/lib/llvm-22/lib} TIMEOUT=${TIMEOUT:-60}
for f in "$GPUINTERP" "$MGPUSIM" "$LLVM_BIN/mlir-opt" "$LLVM_BIN/mlir-runner" "$LLVM_BIN/FileCheck"; do
  if [ ! -e "$f" ]; then
    echo "run-upstream.sh: $f not found (build with 'ninja -C . all', or set the variable)" >&2
    exit 2
  fi
done
exec python3 - "$1" <<'PY'
import os, re, subprocess, sys, tempfile

root, keep = os.environ["RU_ROOT"], os.environ["RU_KEEP"]
bin_ = os.environ["LLVM_BIN"]
lib = os.environ["MLIR_LIB"]
timeout = int(os.environ["TIMEOUT"])
opt, runner, filecheck = bin_ + "/mlir-opt", bin_ + "/mlir-runner", bin_ + "/FileCheck"
gpuinterp, mgpusim = os.environ["GPUINTERP"], os.environ["MGPUSIM"]

# What the simulator will never have, by the ops that need it: (reason, pattern over the test).
NEVER = [
    ("tensor cores (wmma/mma/wgmma)",
     r"\bwmma\b|subgroup_mma|\bmma\b|mma\.sync|mma_sync|\bnvgpu\.mma|wgmma|warpgroup\.mma"),
    ("TMA (bulk tensor copies)", r"\btma\b|nvgpu\.tma|tma_|cp\.async\.bulk|tensormap"),
    ("thread-block clusters", r"cluster"),
]
ASYNC_PASSES = ["-async-to-async-runtime", "-async-runtime-ref-counting", "-convert-async-to-llvm",
                "-convert-func-to-llvm", "-convert-arith-to-llvm", "-convert-cf-to-llvm",
                "-reconcile-unrealized-casts"]


# The oldest PTX ISA each chip needs (LLVM's NVPTX table): mlir-opt 22 targets PTX 6.0 unless told
# otherwise, which chips from sm_75 on reject, so a test that names such a chip and no features
# gets these.
PTX_OF_CHIP = [(100, 86), (90, 78), (89, 78), (87, 74), (86, 71), (80, 70), (75, 63)]


def min_ptx(chip):
    m = re.match(r"sm_(\d+)(a?)", chip)
    if not m:
        return None
    n = int(m.group(1))
    for sm, ptx in PTX_OF_CHIP:
        if n >= sm:
            return 80 if m.group(2) and sm == 90 else ptx
    return None


def first_run(text):
    """The first RUN command, its continuation lines joined."""
    cmd, out = [], None
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:(.*)$", line)
        if not m:
            if cmd:
                break
            continue
        part = m.group(1).rstrip()
        cmd.append(part[:-1] if part.endswith("\\") else part)
        if not part.endswith("\\"):
            break
    return " ".join(cmd)


def short(line, work):
    return line.strip().replace(work + os.sep, "")[:160]


def reason_of(out, work, fc=None):
    """A one-line reason: the first error the run printed, else FileCheck's complaint."""
    for line in out.splitlines():
        if "error" in line or "Error" in line:
            return short(line, work)
    if fc:
        for line in fc.splitlines():
            if "error:" in line:
                return "output does not match: " + short(line.split("error:", 1)[1], work)
    return short(out.strip().splitlines()[-1], work) if out.strip() else "no output"


def run(cmd, **kw):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, **kw)
        return r.returncode, r.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode(errors="replace") + "\nerror: timed out after %d s" % timeout


def check(test, out, prefix, work, name):
    path = os.path.join(work, name + ".out")
    with open(path, "w") as f:
        f.write(out)
    cmd = [filecheck, test, "--input-file", path] + (["--check-prefix=" + prefix] if prefix else [])
    rc, fc = run(cmd)
    return rc == 0, fc


def one(test, work):
    text = open(test, errors="replace").read()
    cmd = first_run(text)
    if not re.search(r"mlir-(cpu-)?runner", cmd):
        return ("SKIP", "SKIP", ["runs no program (no mlir-runner in its RUN line)"])
    for why, pat in NEVER:
        if re.search(pat, text):
            return ("SKIP", "SKIP", ["needs " + why])
    opts = ["cubin-format=isa"]
    chip = re.search(r"cubin-chip=([\w.]+)", cmd) or re.search(r"\bchip=(sm_\w+)", cmd)
    feats = re.search(r"cubin-features=([^\s\"'}]+)", cmd)
    if chip:
        opts.append("cubin-chip=" + chip.group(1))
    if feats:
        opts.append("cubin-features=" + feats.group(1))
    elif chip and min_ptx(chip.group(1)):
        opts.append("cubin-features=+ptx%d" % min_ptx(chip.group(1)))
    prefix = re.search(r"FileCheck\b[^|]*--?check-prefix(?:es)?=(\S+)", cmd)
    prefix = prefix.group(1) if prefix else None
    entry = re.search(r"-?-entry-point-result=(\w+)", cmd)
    ename = re.search(r"\s-e\s+(\w+)", cmd)
    lowered = os.path.join(work, "lowered.mlir")
    source, rc, out = test, 0, ""
    if "-gpu-async-region" in cmd:
        source = os.path.join(work, "async-region.mlir")
        rc, out = run([opt, test, "-gpu-kernel-outlining", "-gpu-async-region", "-o", source])
    if rc == 0:
        rc, out = run([opt, source, '-gpu-lower-to-nvvm-pipeline=' + " ".join(opts), "-o", lowered])
    if rc == 0 and "async-to-async-runtime" in cmd:
        rc, out = run([opt, lowered] + ASYNC_PASSES + ["-o", lowered + ".async"])
        if rc == 0:
            os.replace(lowered + ".async", lowered)
    if rc != 0:
        why = "lowering with %s failed: %s" % (" ".join(opts), reason_of(out, work))
        return ("FAIL", "FAIL", [why])
    libs = [lib + "/libmlir_runner_utils.so.22.1", lib + "/libmlir_c_runner_utils.so.22.1"]
    if "async_runtime" in cmd:
        libs.append(lib + "/libmlir_async_runtime.so.22.1")
    libs.append(mgpusim)
    olevel = re.search(r"\s(-O[0-3])\b", cmd)
    rcmd = [runner, lowered, "--entry-point-result=" + (entry.group(1) if entry else "void"),
            "--shared-libs=" + ",".join(libs)] + (["-e", ename.group(1)] if ename else []) + \
           ([olevel.group(1)] if olevel else [])
    results, reasons = [], []
    for name, c in (("mlir-runner", rcmd), ("gpuinterp", [gpuinterp, lowered])):
        rc, out = run(c)
        ok, fc = check(test, out, prefix, work, name) if "FileCheck" in cmd else (True, "")
        if rc == 0 and ok:
            results.append("PASS")
        else:
            results.append("FAIL")
            # an output FileCheck accepts from a run that exits non-zero: say so before its error
            matched = "exit %d, output matches: " % rc if rc != 0 and ok and "FileCheck" in cmd else ""
            reasons.append("%s: %s%s" % (name, matched, reason_of(out, work, fc) if rc != 0 else reason_of("", work, fc)))
    return (results[0], results[1], reasons)


def main():
    top = sys.argv[1]
    tests = sorted(os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs if f.endswith(".mlir"))
    rows, counts = [], {}
    for t in tests:
        rel = os.path.relpath(t, top)
        if keep:
            work = os.path.join(keep, rel.replace(os.sep, "__"))
            os.makedirs(work, exist_ok=True)
            r = one(t, work)
        else:
            with tempfile.TemporaryDirectory() as work:
                r = one(t, work)
        rows.append((rel,) + r)
        for s in r[:2]:
            counts[s] = counts.get(s, 0) + 1
    w = max([len(r[0]) for r in rows] + [4])
    # one line per test; a failure's reasons follow on their own lines, one per run
    print("%-*s  %-11s  %-9s  %s" % (w, "test", "mlir-runner", "gpuinterp", "reason"))
    for rel, a, b, why in rows:
        if a == "SKIP" or len(why) < 2:
            print("%-*s  %-11s  %-9s  %s" % (w, rel, a, b, why[0] if why else ""))
        else:
            print("%-*s  %-11s  %-9s" % (w, rel, a, b))
            for r in why:
                print("    " + r)
    print("%d tests; runs: %d passed, %d failed, %d skipped" %
          (len(rows), counts.get("PASS", 0), counts.get("FAIL", 0), counts.get("SKIP", 0)))
    return 1 if counts.get("FAIL") else 0


sys.exit(main())
PY
