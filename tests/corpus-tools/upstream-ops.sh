#!/bin/sh
# upstream-ops.sh - the ops mlir-opt 22 registers in the dialects that allow no unknown ops and
# whose ops gpuinterp's programs use, one per line, sorted: what ir/upstream_ops.def holds.
#   tests/corpus-tools/upstream-ops.sh [MLIR_OPT]    (default /usr/lib/llvm-22/bin/mlir-opt)
# Candidates are the strings of the form dialect.name in the MLIR library mlir-opt loads; each is
# kept when mlir-opt, given it as a generic op, does not call it an unregistered operation. A
# dialect that accepts unknown ops (llvm, nvvm, rocdl) needs no list, and is not here.
# Regenerate the list with:
#   tests/corpus-tools/upstream-ops.sh | sed 's/.*/UPSTREAM_OP("&")/' > ir/upstream_ops.def.new
# (then put the header of ir/upstream_ops.def back on top).
set -eu
export LC_ALL=C
opt=${1:-/usr/lib/llvm-22/bin/mlir-opt}
lib=$(ldd "$opt" | awk '/libMLIR\.so/ {print $3; exit}')
[ -n "$lib" ] || { echo "upstream-ops.sh: $opt loads no libMLIR.so" >&2; exit 2; }
dialects='affine|amdgpu|arith|async|builtin|cf|func|gpu|index|math|memref|nvgpu|scf|ub|vector'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strings -n 4 "$lib" | grep -xE "($dialects)\.[a-z_][a-z_0-9.]*" | sort -u > "$tmp/cand"
while read -r n; do
    printf '"%s"() : () -> ()\n' "$n" > "$tmp/x.mlir"
    # some ops crash mlir-opt without operands: a crash is not "unregistered", so they count
    sh -c 'timeout 20 "$1" "$2" -o /dev/null' sh "$opt" "$tmp/x.mlir" > "$tmp/err" 2>&1 || true
    if ! grep -q "unregistered operation" "$tmp/err"; then
        echo "$n"
    fi
done < "$tmp/cand"
