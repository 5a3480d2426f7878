#!/bin/sh
# truncation-sweep.sh — feed gpuinterp every STEP-th prefix of some corpus
# files: malformed input by the hundred, with mlir-opt as the referee.
#
# usage: truncation-sweep.sh [--record] GPUINTERP MLIR_OPT STEP TMPDIR FILE...
#
# For each prefix (the first N bytes of FILE, N = STEP, 2*STEP, ...):
#   - gpuinterp --emit=mlir must exit 0 or 2 within 10 s: never crash, hang
#     or exit 1;
#   - it must accept exactly the prefixes mlir-opt accepts (a prefix that
#     stops between two complete top-level ops is a valid program; one cut
#     inside an op is not);
#   - on exit 2 its first line must be a located error,
#     `PREFIX:LINE:COL: error: ...`, with LINE inside the prefix (or the
#     line after it, for an error at end of input).
# Prints one line per problem, then a summary that also counts how many
# error positions (LINE:COL) equal mlir-opt's, for information only.
# Exit 1 if any prefix broke a rule.
#
# mlir-opt's verdicts are cached, because starting mlir-opt costs ~0.1 s a
# prefix: truncation-verdicts/NAME.STEP holds the sha256 of FILE and, per
# prefix, mlir-opt's exit status and error position. A missing or stale
# cache (FILE changed) makes the sweep ask mlir-opt live, and say so;
# --record (re)writes the caches of the files given:
#   tests/corpus-tools/truncation-sweep.sh --record build/gpuinterp \
#       /usr/lib/llvm-22/bin/mlir-opt STEP /tmp/sweep FILE...
set -u
record=0
if [ "${1:-}" = --record ]; then record=1; shift; fi
if [ $# -lt 5 ]; then
    echo "usage: truncation-sweep.sh [--record] GPUINTERP MLIR_OPT STEP TMPDIR FILE..." >&2
    exit 2
fi
G=$1 O=$2 STEP=$3 D=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
cache_dir=$here/truncation-verdicts
mkdir -p "$D"
bad=0 total=0 same_pos=0 errors=0
for f in "$@"; do
    size=$(wc -c <"$f")
    base=$(basename "$f" .mlir)
    sum=$(sha256sum <"$f" | cut -d' ' -f1)
    cache=$cache_dir/$base.$STEP
    live=1
    if [ $record -eq 1 ]; then
        mkdir -p "$cache_dir"
        echo "sha256 $sum" >"$cache"
    elif [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "sha256 $sum" ]; then
        live=0
    else
        echo "truncation-sweep: note: no current verdict cache for $f (step $STEP); asking mlir-opt (slow); refresh with --record"
    fi
    n=$STEP
    while [ "$n" -lt "$size" ]; do
        p=$D/$base.prefix$n.mlir
        head -c "$n" "$f" >"$p"
        total=$((total + 1))
        timeout 10 "$G" --emit=mlir "$p" >/dev/null 2>"$p.err"
        rc=$?
        if [ $live -eq 1 ]; then
            "$O" "$p" >/dev/null 2>"$p.operr"
            orc=$?
            theirs=$(head -n 1 "$p.operr")
            theirs_pos=${theirs#"$p":}
            theirs_pos=${theirs_pos%%: error:*}
            [ $record -eq 1 ] && echo "$n $orc $theirs_pos" >>"$cache"
        else
            verdict=$(grep "^$n " "$cache")
            orc=$(echo "$verdict" | cut -d' ' -f2)
            theirs_pos=$(echo "$verdict" | cut -d' ' -f3)
            theirs="mlir-opt: error at $theirs_pos"
        fi
        problem=
        if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
            problem="exit $rc"
            [ $rc -eq 124 ] && problem="timed out"
            [ $rc -gt 128 ] && problem="killed by signal $((rc - 128))"
        elif [ $rc -eq 0 ] && [ "$orc" -ne 0 ]; then
            problem="accepted, but mlir-opt rejects it ($theirs)"
        elif [ $rc -eq 2 ] && [ "$orc" -eq 0 ]; then
            problem="rejected a prefix mlir-opt accepts: $(head -n 1 "$p.err")"
        elif [ $rc -eq 2 ]; then
            errors=$((errors + 1))
            first=$(head -n 1 "$p.err")
            lines=$(($(wc -l <"$p") + 1))
            case $first in
            "$p":*:*": error: "*)
                pos=${first#"$p":}
                line=${pos%%:*}
                if [ "$line" -lt 1 ] || [ "$line" -gt "$lines" ]; then
                    problem="error line $line outside the input ($lines lines): $first"
                fi
                [ "${pos%%: error:*}" = "$theirs_pos" ] && same_pos=$((same_pos + 1))
                ;;
            *) problem="first line is not a located error: $first" ;;
            esac
        fi
        if [ -n "$problem" ] && [ $record -eq 0 ]; then
            echo "truncation-sweep: $f at byte $n: $problem"
            bad=$((bad + 1))
        else
            rm -f "$p" "$p.err" "$p.operr"
        fi
        n=$((n + STEP))
    done
done
echo "truncation-sweep: $total prefixes, $bad problems; $errors errors, $same_pos at mlir-opt's LINE:COL"
[ $bad -eq 0 ]
