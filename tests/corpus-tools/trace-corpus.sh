#!/bin/sh
# trace-corpus.sh — write a Chrome trace of every program the lit suite runs and check each one
# with check-chrome-trace.py (the rules Perfetto's importer applies).
#
# usage: tests/corpus-tools/trace-corpus.sh [GPUINTERP [MGPUSIM]] [-- FILE...]
#   defaults: build/gpuinterp, build/libmgpusim.so, and every examples/*.mlir and tests/lit .mlir
#   file that runs gpuinterp on a program with gpu ops (not --split-input-file or
#   --verify-diagnostics cases).
#
# Each file's traces:
#   - its run under the threads scheduler, and for examples/ under serial and random:1 too;
#   - for examples/, the run of its lowering (`--lower`: real streams and events) and the two
#     witness traces of `--diff --trace`;
#   - for tests/lit/runner/, the file lowered by `mlir-opt --convert-scf-to-cf --gpu-to-llvm` and
#     run by mlir-runner on libmgpusim.so with MGPUSIM_TRACE.
# A run may fail (races, misuse and errors are what many tests are about): its trace is checked
# all the same. Every run has a time limit (--timeout), as some tests loop on purpose.
# Prints the checker's problems and `trace-corpus: N traces checked, K bad`; exit 1 on any.
# TRACE_CORPUS_LIST=1 also lists the traces written, on stderr.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
G=$root/build/gpuinterp
M=$root/build/libmgpusim.so
if [ $# -gt 0 ] && [ "$1" != -- ]; then G=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then M=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
LLVM=/usr/lib/llvm-22
if [ $# -eq 0 ]; then
    set -- "$root"/examples/*.mlir $(cd "$root" && grep -l '%gpuinterp' $(find tests/lit -name '*.mlir' | sort) |
        xargs grep -L 'split-input-file\|verify-diagnostics' | xargs grep -l 'gpu\.\|mgpu' |
        sed "s|^|$root/|") $(ls "$root"/tests/lit/runner/*.mlir)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$@"; do
    n=$((n + 1))
    base=$tmp/$n.$(basename "$f" .mlir)
    case $f in
    */tests/lit/runner/*)
        if "$LLVM/bin/mlir-opt" --convert-scf-to-cf --gpu-to-llvm "$f" -o "$base.ll.mlir" 2>/dev/null; then
            MGPUSIM_TRACE=$base.runner.json timeout 60 "$LLVM/bin/mlir-runner" -e main \
                -entry-point-result=void \
                --shared-libs="$LLVM/lib/libmlir_runner_utils.so.22.1,$LLVM/lib/libmlir_c_runner_utils.so.22.1,$M" \
                "$base.ll.mlir" >/dev/null 2>&1
        fi
        continue ;;
    esac
    timeout 60 "$G" --timeout=3 --trace-format=chrome --trace="$base.threads.json" "$f" >/dev/null 2>&1
    case $f in
    */examples/*)
        timeout 60 "$G" --sched=serial --trace-format=chrome --trace="$base.serial.json" "$f" >/dev/null 2>&1
        timeout 60 "$G" --sched=random:1 --trace-format=chrome --trace="$base.random.json" "$f" >/dev/null 2>&1
        if "$G" --lower "$f" -o "$base.lowered.mlir" 2>/dev/null; then
            timeout 60 "$G" --trace-format=chrome --trace="$base.lowered.json" "$base.lowered.mlir" >/dev/null 2>&1
        fi
        timeout 60 "$G" --diff --seeds 1 --trace-format=chrome --trace="$base.diff.json" "$f" >/dev/null 2>&1 ;;
    esac
done
set -- "$tmp"/*.json
if [ ! -e "$1" ]; then
    echo "trace-corpus: no trace was written"
    exit 1
fi
[ -n "${TRACE_CORPUS_LIST:-}" ] && ls "$tmp" >&2
python3 "$here/check-chrome-trace.py" -q "$@" | sed "s|$tmp/[0-9]*\.||"
bad=$(python3 "$here/check-chrome-trace.py" -q "$@" | sed 's/: .*//' | sort -u | wc -l)
echo "trace-corpus: $# traces checked, $bad bad"
[ "$bad" -eq 0 ]
