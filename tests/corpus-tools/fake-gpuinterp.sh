#!/bin/sh
# fake-gpuinterp.sh — stands in for `gpuinterp --emit=mlir` by calling
# mlir-opt, so that roundtrip.sh can be tested before (and independently of)
# the real front end.  selftest.sh uses it.
#
# usage: fake-gpuinterp.sh --emit=mlir [--print-generic] [--print-locations] FILE|-
#
# FAKE_BUG selects a deliberate bug, to prove that roundtrip.sh notices it:
#   none        (default) a perfect front end: every check passes
#   constant    the parser reads `arith.constant 1 :` as 2 (stable, so only
#               the oracle comparison can see it)
#   drift       every print renames the first symbol @x to @x_ (no fixed point)
#   no-locs     --print-locations is ignored
#   loc-shift   one synthesized column is off by one
#   stdin       reading from `-` fails
#   generic     --print-generic drops sym_visibility (private becomes public)
#   loc-alias   cannot read #loc aliases (fails on mlir-opt's debuginfo output)
#   crash       dies with SIGSEGV on files that contain `scf.while`
set -u
MLIR_OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
BUG=${FAKE_BUG:-none}
generic= locs= file=
for a in "$@"; do
    case $a in
    --emit=mlir) ;;
    --print-generic) generic=--mlir-print-op-generic ;;
    --print-locations) locs=--mlir-print-debuginfo ;;
    -*) [ "$a" = - ] && file=- || { echo "fake-gpuinterp: unknown option $a" >&2; exit 2; } ;;
    *) file=$a ;;
    esac
done
[ -n "$file" ] || { echo "usage: fake-gpuinterp.sh --emit=mlir [--print-generic] [--print-locations] FILE|-" >&2; exit 2; }

case $BUG in
stdin) [ "$file" = - ] && { echo "<stdin>: cannot read" >&2; exit 2; } ;;
no-locs) locs= ;;
loc-alias) [ "$file" != - ] && grep -q '^#loc[0-9]* = ' "$file" && { echo "$file: error: #loc alias" >&2; exit 2; } ;;
crash) [ "$file" != - ] && grep -q 'scf.while' "$file" && kill -SEGV $$ ;;
esac

out=$("$MLIR_OPT" $generic $locs "$file") || exit 2
case $BUG in
constant) out=$(printf '%s\n' "$out" | sed 's/arith\.constant 1 :/arith.constant 2 :/; s/value = 1 :/value = 2 :/') ;;
drift) out=$(printf '%s\n' "$out" | sed '0,/@\([A-Za-z_][A-Za-z0-9_]*\)/s//@\1_/') ;;
loc-shift) out=$(printf '%s\n' "$out" | sed '0,/:\([0-9][0-9]*\):\([0-9]*[13579]\))/s//:\1:1\2)/') ;;
generic) [ -n "$generic" ] && out=$(printf '%s\n' "$out" | sed 's/, sym_visibility = "private"//') ;;
esac
printf '%s\n' "$out"
