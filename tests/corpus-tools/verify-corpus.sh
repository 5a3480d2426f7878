#!/bin/sh
# verify-corpus.sh - gpuinterp's verifier must not accept what mlir-opt 22 rejects.
#
# usage: verify-corpus.sh [FILE|DIR ...]     (default: tests/lit and examples)
#
# For every .mlir file that gpuinterp accepts (`gpuinterp --emit=mlir FILE` exits 0), mlir-opt
# must accept both the file and gpuinterp's printed output. A file that holds `// -----` lines
# is read with --split-input-file by both tools. Each disagreement is one line on stdout:
#   FILE: mlir-opt rejects the input: MESSAGE
#   FILE: mlir-opt rejects gpuinterp's output: MESSAGE
# and the exit status is 1 when there is any, 0 otherwise. A file that tests what gpuinterp does
# with IR mlir-opt rejects says so in a line of its own:
#   // verify-corpus: mlir-opt rejects the input      only gpuinterp's output is checked
#   // verify-corpus: unregistered dialect            both tools run with --allow-unregistered-dialect
#
# Speed: mlir-opt's start-up is most of the cost, so the inputs, and then the outputs, are first
# given to one mlir-opt each, joined with `// -----` markers (--split-input-file keeps every
# part apart). Only when that finds a problem is each file checked alone, to name it.
# GPUINTERP (default build/gpuinterp) and MLIR_OPT (default /usr/lib/llvm-22/bin/mlir-opt)
# choose the binaries.
root=$(cd "$(dirname "$0")/../.." && pwd)
GPUINTERP=${GPUINTERP:-$root/build/gpuinterp}
MLIR_OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
[ $# -eq 0 ] && set -- "$root/tests/lit" "$root/examples"
[ -x "$GPUINTERP" ] || { echo "verify-corpus.sh: no gpuinterp at $GPUINTERP" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

marked() { grep -q "^// verify-corpus: $2" "$1"; }
first_error() { grep -m1 'error:' "$1" | sed 's/^[^ ]* error: //'; }
split_flag() { grep -q '^// -----' "$1" && echo --split-input-file; }
allow_flag() { marked "$1" 'unregistered dialect' && echo --allow-unregistered-dialect; }

# What gpuinterp accepts, and what it prints for it: $tmp/N.mlir for the Nth line of $tmp/list.
n=0
: >"$tmp/list"
: >"$tmp/in.mlir"
: >"$tmp/out.mlir"
for f in $(find "$@" -name '*.mlir' -type f | sort); do
    n=$((n + 1))
    timeout 60 "$GPUINTERP" $(split_flag "$f") $(allow_flag "$f") --emit=mlir "$f" >"$tmp/$n.mlir" 2>/dev/null || continue
    echo "$n $f" >>"$tmp/list"
    marked "$f" 'unregistered dialect' && continue # checked alone below
    if ! marked "$f" 'mlir-opt rejects the input'; then
        cat "$f" >>"$tmp/in.mlir"
        printf '\n// -----\n' >>"$tmp/in.mlir"
    fi
    cat "$tmp/$n.mlir" >>"$tmp/out.mlir"
    printf '\n// -----\n' >>"$tmp/out.mlir"
done

# check N FILE: the disagreements on one file.
check() {
    flags=$(split_flag "$2")
    marked "$2" 'unregistered dialect' && flags="$flags --allow-unregistered-dialect"
    if ! marked "$2" 'mlir-opt rejects the input' &&
        ! timeout 60 "$MLIR_OPT" $flags "$2" -o /dev/null 2>"$tmp/err"; then
        echo "$2: mlir-opt rejects the input: $(first_error "$tmp/err")"
    fi
    if ! timeout 60 "$MLIR_OPT" $flags "$tmp/$1.mlir" -o /dev/null 2>"$tmp/err"; then
        echo "$2: mlir-opt rejects gpuinterp's output: $(first_error "$tmp/err")"
    fi
}

if timeout 300 "$MLIR_OPT" --split-input-file "$tmp/in.mlir" -o /dev/null 2>/dev/null &&
    timeout 300 "$MLIR_OPT" --split-input-file "$tmp/out.mlir" -o /dev/null 2>/dev/null; then
    only=$(grep -l '^// verify-corpus: unregistered dialect' $(cut -d' ' -f2 "$tmp/list") 2>/dev/null)
else
    only=all
fi
while read -r i f; do
    if [ "$only" = all ] || printf '%s\n' "$only" | grep -qxF "$f"; then
        check "$i" "$f"
    fi
done <"$tmp/list" >"$tmp/report"
[ -s "$tmp/report" ] || exit 0
cat "$tmp/report"
exit 1
