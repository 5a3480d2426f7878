#!/usr/bin/env bash
# sweep.sh - mutation testing of the lowering: every site of every kind of --lower-mutate, over a
# corpus of programs, each mutant checked by `gpuinterp --diff PROG --against MUTANT`. A mutant is
# killed when --diff exits 1 (a difference found); one that survives means the corpus or the
# checker is too weak. Prints one line per survivor and the kill rate; exits 1 when any survived
# (or a mutant could not be checked), 0 when all were killed.
#
#   tests/mutants/sweep.sh [-j N] [PROG.mlir...]   (default: tests/mutants/corpus/*.mlir)
#   GPUINTERP=build/asan/gpuinterp tests/mutants/sweep.sh   (the binary; default build/gpuinterp)
#
# A kind with no site in a program is skipped for it; every kind must have a site somewhere in the
# corpus, or the sweep fails (a kind nothing exercises is a kind nothing tests).
#
# The corpus (tests/mutants/corpus/) is written so that no mutant can be harmless: every
# dependency orders two conflicting accesses, none is implied by another, none is on a stream that
# holds only allocations (mgpuMemAlloc is synchronous: waiting for it orders nothing), no code is
# dead, and every copy's bytes reach the printed output. So every survivor is a weakness of the
# corpus or of the checker, never an equivalent mutant.
set -u
cd "$(dirname "$0")/../.."
G=${GPUINTERP:-build/gpuinterp}
jobs=2
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
[ $# -gt 0 ] || set -- tests/mutants/corpus/*.mlir
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kinds=$("$G" --lower --lower-mutate=list /dev/null 2>&1 | sed -n 's/.*expected one of: \(.*\))$/\1/p' | tr -d ,)
[ -n "$kinds" ] || { echo "sweep: cannot list the mutation kinds of $G" >&2; exit 1; }

# one job: prog kind site -> a line "killed|survived|broken prog kind:site"
check() {
  local prog=$1 kind=$2 site=$3 out
  out=$tmp/$(basename "$prog" .mlir).$kind.$site
  if ! "$G" --lower --lower-mutate="$kind:$site" "$prog" -o "$out.mlir" 2>"$out.err"; then
    echo "broken $prog $kind:$site (the mutant did not lower: $(head -1 "$out.err"))"
    return
  fi
  "$G" --diff "$prog" --against "$out.mlir" >/dev/null 2>"$out.diff"
  case $? in
    1) echo "killed $prog $kind:$site" ;;
    0) echo "survived $prog $kind:$site" ;;
    *) echo "broken $prog $kind:$site (--diff: $(head -1 "$out.diff"))" ;;
  esac
}
export -f check
export G tmp

list=$tmp/jobs
: > "$list"
for prog in "$@"; do
  for kind in $kinds; do
    # how many sites: a site past the last is an error that names the count
    n=$("$G" --lower --lower-mutate="$kind:1000000" "$prog" 2>&1 >/dev/null | sed -n 's/.*(it has \([0-9]*\)).*/\1/p')
    for ((s = 0; s < ${n:-0}; s++)); do echo "$prog $kind $s" >> "$list"; done
  done
done
results=$tmp/results
xargs -P "$jobs" -L 1 bash -c 'check "$@"' _ < "$list" > "$results"
total=$(wc -l < "$results")
killed=$(grep -c '^killed' "$results")
grep -v '^killed' "$results"
status=0
for kind in $kinds; do
  if ! grep -q " $kind:" "$results"; then
    echo "kind $kind: no site in the corpus"
    status=1
  fi
done
[ "$total" -gt 0 ] || { echo "sweep: no mutant"; exit 1; }
printf 'mutants: %d, killed: %d, kill rate: %d%%\n' "$total" "$killed" $((100 * killed / total))
[ "$killed" -eq "$total" ] || status=1
exit $status
