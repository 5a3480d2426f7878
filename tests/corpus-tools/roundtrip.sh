#!/bin/sh
# roundtrip.sh — the round-trip check of issue 2, run on one corpus file.
#
# usage: roundtrip.sh GPUINTERP MLIR_OPT FILE TMP
#   GPUINTERP  our binary (lit: %gpuinterp)
#   MLIR_OPT   the upstream oracle, mlir-opt 22 (lit: %mlir_opt)
#   FILE       the .mlir file (lit: %s; keep the path as lit gives it: the
#              locations mlir-opt synthesizes carry it, and ours must match)
#   TMP        prefix for scratch files (lit: %t)
#
# A corpus file starts with
#   // RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
#
# "ours" is `gpuinterp --emit=mlir FILE`.  "ref" is `mlir-opt FILE`.  What
# is checked (every step is named in the failure message):
#
#   parse          gpuinterp parses FILE and prints ours (exit 0)
#   stdin          `gpuinterp --emit=mlir - < FILE` prints ours too
#   fixed-point    gpuinterp on ours prints ours
#   oracle-custom  mlir-opt accepts ours, and mlir-opt's print of ours equals
#                  ref: the IR survived our parse+print unchanged (this is
#                  the check that catches a dropped attribute or a wrong
#                  constant, which a fixed point alone never sees)
#   back-custom    gpuinterp on `mlir-opt ours` prints ours
#   back-generic   gpuinterp on `mlir-opt --mlir-print-op-generic ours`
#                  prints ours
#   our-generic    `gpuinterp --emit=mlir --print-generic FILE` is accepted
#                  by mlir-opt with the same IR (mlir-opt prints ref), and
#                  gpuinterp reads it back to ours
#   loc-*          locations, see below
#
# Locations.  What can be compared meaningfully is the location each op,
# block argument and module *has*, not how it is spelled (inline or through
# #loc aliases, which mlir-opt numbers itself).  mlir-opt gives every op
# without an explicit loc(...) the file:line:col of its op name (of the
# block argument's name; the implicit top-level module gets FILE:0:0), so
# `gpuinterp --print-locations` must print exactly those, spelled
# explicitly.  Then:
#   loc-oracle     `mlir-opt --mlir-print-debuginfo ourloc` equals
#                  `mlir-opt --mlir-print-debuginfo FILE`: every location,
#                  explicit or synthesized, is the one mlir-opt sees in FILE
#   loc-fixed      gpuinterp --print-locations on ourloc prints ourloc
#   loc-back       gpuinterp --print-locations reads mlir-opt's debuginfo
#                  output (custom and generic: #loc aliases defined after
#                  their uses) and prints ourloc. Where mlir-opt's custom
#                  print itself loses locations (the op nested in
#                  vector.mask), it is enough that mlir-opt prints
#                  gpuinterp's reading exactly as its own reading.
#   loc-generic    our generic form with locations carries the same ones
#   loc-strip      gpuinterp without --print-locations on ourloc prints ours
#   loc-stdin      read from `-`, the synthesized locations name "<stdin>",
#                  as mlir-opt's do
#
# ROUNDTRIP_STRICT=1 adds: ours is byte-identical to ref, our generic form
# to mlir-opt's generic form, and ourloc to mlir-opt's debuginfo output.
# That is not required by issue 2 (the printer may choose its own layout),
# but it is the easiest way to see where our printing differs.
#
# Every command runs under `timeout ${ROUNDTRIP_TIMEOUT:-60}` so that a
# parser that loops fails the test instead of hanging the suite.
#
# Exit 0 when all checks pass, 1 otherwise (each failure printed with the
# command and a unified diff, expected first).  All checks run even after a
# failure, except those whose input could not be produced.

set -u
if [ $# -ne 4 ]; then
    echo "usage: roundtrip.sh GPUINTERP MLIR_OPT FILE TMP" >&2
    exit 2
fi
G=$1 O=$2 F=$3 T=$4
DIFF_LINES=${ROUNDTRIP_DIFF_LINES:-120}
LIMIT=${ROUNDTRIP_TIMEOUT:-60}
failures=0
mkdir -p "$(dirname "$T")"
rm -f "$T".*.mlir "$T".*.err

# run STEP OUT CMD...: run CMD with stdout to OUT; on a non-zero exit report
# the step and the command's stderr, remove OUT, and return 1.
run() {
    step=$1 out=$2
    shift 2
    timeout "$LIMIT" "$@" >"$out" 2>"$out.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        why="exit $rc"
        [ $rc -eq 124 ] && why="timed out after ${LIMIT}s"
        [ $rc -gt 128 ] && why="killed by signal $((rc - 128))"
        echo "roundtrip: FAIL [$step]: $why: $*"
        head -n 40 "$out.err" | sed 's/^/  | /'
        rm -f "$out"
        failures=$((failures + 1))
        return 1
    fi
    return 0
}

# same STEP EXPECTED ACTUAL WHAT: compare two files exactly.
same() {
    step=$1 expected=$2 actual=$3 what=$4
    [ -f "$expected" ] && [ -f "$actual" ] || return 1
    if ! cmp -s "$expected" "$actual"; then
        echo "roundtrip: FAIL [$step]: $what"
        echo "  expected: $expected"
        echo "  actual:   $actual"
        diff -u "$expected" "$actual" | head -n "$DIFF_LINES"
        failures=$((failures + 1))
        return 1
    fi
    return 0
}

# lossy_in_print OPTLOC BACK: true when mlir-opt cannot read back its own
# debuginfo print OPTLOC unchanged (some custom forms print a nested op
# without its loc, e.g. the op inside vector.mask: the alias is defined but
# never used), and gpuinterp's reading BACK of OPTLOC looks to mlir-opt
# exactly like mlir-opt's own reading of OPTLOC: gpuinterp lost no more
# than mlir-opt itself does.
lossy_in_print() {
    timeout "$LIMIT" "$O" --mlir-print-debuginfo "$1" >"$1.self" 2>/dev/null || return 1
    cmp -s "$1" "$1.self" && return 1
    timeout "$LIMIT" "$O" --mlir-print-debuginfo "$2" >"$2.view" 2>/dev/null &&
        cmp -s "$1.self" "$2.view"
}

# The oracle must accept the corpus file itself; otherwise the file is wrong.
if ! run oracle-input "$T.ref.mlir" "$O" "$F"; then
    echo "roundtrip: the corpus file itself is rejected by mlir-opt; fix the file"
    exit 1
fi
run oracle-input "$T.refgen.mlir" "$O" --mlir-print-op-generic "$F"
run oracle-input "$T.refloc.mlir" "$O" --mlir-print-debuginfo "$F"

if ! run parse "$T.ours.mlir" "$G" --emit=mlir "$F"; then
    echo "roundtrip: $failures failure(s) in $F"
    exit 1
fi
OURS=$T.ours.mlir

if run stdin "$T.stdin.mlir" sh -c '"$1" --emit=mlir - <"$2"' sh "$G" "$F"; then
    same stdin "$OURS" "$T.stdin.mlir" "reading FILE from stdin prints something else"
fi

if run fixed-point "$T.fix.mlir" "$G" --emit=mlir "$OURS"; then
    same fixed-point "$OURS" "$T.fix.mlir" "gpuinterp on its own output prints something else"
fi

if run oracle-custom "$T.opt.mlir" "$O" "$OURS"; then
    same oracle-custom "$T.ref.mlir" "$T.opt.mlir" \
        "mlir-opt sees different IR in ours than in FILE (expected: mlir-opt FILE, actual: mlir-opt ours)"
    if run back-custom "$T.back.mlir" "$G" --emit=mlir "$T.opt.mlir"; then
        same back-custom "$OURS" "$T.back.mlir" "gpuinterp on mlir-opt's custom print of ours"
    fi
fi

if run back-generic "$T.optgen.mlir" "$O" --mlir-print-op-generic "$OURS"; then
    if run back-generic "$T.backgen.mlir" "$G" --emit=mlir "$T.optgen.mlir"; then
        same back-generic "$OURS" "$T.backgen.mlir" "gpuinterp on mlir-opt's generic print of ours"
    fi
fi

if run our-generic "$T.gen.mlir" "$G" --emit=mlir --print-generic "$F"; then
    if run our-generic "$T.genopt.mlir" "$O" "$T.gen.mlir"; then
        same our-generic "$T.ref.mlir" "$T.genopt.mlir" \
            "mlir-opt sees different IR in our generic form (expected: mlir-opt FILE, actual: mlir-opt ourgeneric)"
    fi
    if run our-generic "$T.genback.mlir" "$G" --emit=mlir "$T.gen.mlir"; then
        same our-generic "$OURS" "$T.genback.mlir" "gpuinterp on its own generic form"
    fi
fi

LOC=$T.loc.mlir
if run loc-parse "$LOC" "$G" --emit=mlir --print-locations "$F"; then
    if run loc-oracle "$T.optloc.mlir" "$O" --mlir-print-debuginfo "$LOC"; then
        same loc-oracle "$T.refloc.mlir" "$T.optloc.mlir" \
            "locations differ (expected: mlir-opt --mlir-print-debuginfo FILE, actual: the same on ours --print-locations)"
        if run loc-back "$T.locback.mlir" "$G" --emit=mlir --print-locations "$T.optloc.mlir"; then
            if ! cmp -s "$LOC" "$T.locback.mlir" && lossy_in_print "$T.optloc.mlir" "$T.locback.mlir"; then
                echo "roundtrip: note [loc-back]: mlir-opt loses locations in its own debuginfo print; gpuinterp reads it as mlir-opt does"
            else
                same loc-back "$LOC" "$T.locback.mlir" "gpuinterp --print-locations on mlir-opt's debuginfo print"
            fi
        fi
    fi
    if run loc-fixed "$T.locfix.mlir" "$G" --emit=mlir --print-locations "$LOC"; then
        same loc-fixed "$LOC" "$T.locfix.mlir" "gpuinterp --print-locations on its own output"
    fi
    if run loc-back "$T.optlocgen.mlir" "$O" --mlir-print-debuginfo --mlir-print-op-generic "$LOC"; then
        if run loc-back "$T.locbackgen.mlir" "$G" --emit=mlir --print-locations "$T.optlocgen.mlir"; then
            same loc-back "$LOC" "$T.locbackgen.mlir" \
                "gpuinterp --print-locations on mlir-opt's generic debuginfo print"
        fi
    fi
    if run loc-strip "$T.locstrip.mlir" "$G" --emit=mlir "$LOC"; then
        same loc-strip "$OURS" "$T.locstrip.mlir" "explicit locations changed the printed IR"
    fi
fi
# From stdin, mlir-opt names the buffer "<stdin>"; the synthesized
# locations must say so too.
if run loc-stdin "$T.stdinloc.mlir" sh -c '"$1" --emit=mlir --print-locations - <"$2"' sh "$G" "$F"; then
    if run loc-stdin "$T.stdinlocopt.mlir" "$O" --mlir-print-debuginfo "$T.stdinloc.mlir" &&
        run loc-stdin "$T.stdinlocref.mlir" sh -c '"$1" --mlir-print-debuginfo - <"$2"' sh "$O" "$F"; then
        same loc-stdin "$T.stdinlocref.mlir" "$T.stdinlocopt.mlir" \
            "locations of a program read from stdin (expected: mlir-opt --mlir-print-debuginfo - < FILE)"
    fi
fi
if run loc-generic "$T.genloc.mlir" "$G" --emit=mlir --print-generic --print-locations "$F"; then
    if run loc-generic "$T.genlocopt.mlir" "$O" --mlir-print-debuginfo "$T.genloc.mlir"; then
        same loc-generic "$T.refloc.mlir" "$T.genlocopt.mlir" \
            "locations differ in our generic form (expected: mlir-opt --mlir-print-debuginfo FILE)"
    fi
fi

if [ "${ROUNDTRIP_STRICT:-0}" = 1 ]; then
    same strict "$T.ref.mlir" "$OURS" "ours is not byte-identical to mlir-opt's print"
    same strict "$T.refgen.mlir" "$T.gen.mlir" "our generic form is not byte-identical to mlir-opt's"
    same strict "$T.refloc.mlir" "$LOC" "ours with locations is not byte-identical to mlir-opt's"
fi

if [ $failures -ne 0 ]; then
    echo "roundtrip: $failures failure(s) in $F"
    exit 1
fi
exit 0
