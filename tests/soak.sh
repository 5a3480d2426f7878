#!/usr/bin/env bash
# tests/soak.sh [MINUTES] (default 5): runs fresh tests/gen/genprog.py programs until the time is up.
# Each seed is checked both ways by tests/gen/check.py (race-free: mlir-opt accepts it and
# gpuinterp prints the expected output under the serial and a random scheduler; --drop-dep:
# gpuinterp reports the race), then `gpuinterp --diff` runs on the race-free program when this
# gpuinterp has it. Every failing program is kept under build/soak/ with a .cmd file holding the
# command that fails. Prints a progress line on a terminal only, then "N programs, K failures";
# exits 1 on any failure. Not part of ./x test: a random search can fail on an older bug.
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-5}
bin=build/gpuinterp
opt=/usr/lib/llvm-22/bin/mlir-opt
out=build/soak
ninja -C . "$bin" >/dev/null || exit 1
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

has_diff=0
if "$bin" --help 2>&1 | grep -q -- '--diff'; then has_diff=1; else
  echo "soak: $bin --help does not list --diff: skipping the differential check"; fi

end=$(( $(date +%s) + minutes * 60 ))
seed=$(( ($(date +%s) % 100000) * 1000 + 1000000 ))
n=0 k=0
keep() {  # keep NAME CMD...: the program in $tmp/NAME.mlir failed CMD
  local name=$1; shift
  cp "$tmp/$name.mlir" "$out/$name.mlir" 2>/dev/null
  printf '%s\n' "$*" >"$out/$name.cmd"
  k=$((k + 1))
  echo "soak: FAIL $name: $*"
}
while [ "$(date +%s)" -lt "$end" ]; do
  seed=$((seed + 1))
  for mode in "" --drop-dep; do
    n=$((n + 1))
    name=seed-$seed${mode:+-drop}
    if ! python3 tests/gen/check.py $mode --gpuinterp "$bin" --mlir-opt "$opt" --dir "$tmp" \
        "$seed" >"$tmp/log" 2>&1; then
      cp "$tmp"/$name.* "$out/" 2>/dev/null
      cmd="python3 tests/gen/check.py $mode --gpuinterp $bin --mlir-opt $opt --dir $out $seed"
      printf '%s\n' "$cmd" >"$out/$name.cmd"
      sed -n 's/^FAIL //p' "$tmp/log" | head -3 >>"$out/$name.cmd"
      k=$((k + 1))
      echo "soak: FAIL $name: $(sed -n 's/^FAIL //p' "$tmp/log" | head -1)"
    fi
  done
  if [ "$has_diff" = 1 ]; then
    n=$((n + 1))
    name=seed-$seed-diff
    python3 tests/gen/genprog.py "$seed" -o "$tmp/$name.mlir"
    "$bin" --diff "$tmp/$name.mlir" >"$tmp/log" 2>&1 || keep "$name" "$bin --diff $out/$name.mlir"
  fi
  [ -t 1 ] && printf '\rsoak: %d programs, %d failures, %ds left ' "$n" "$k" \
    $(( end - $(date +%s) ))
done
[ -t 1 ] && printf '\n'
echo "$n programs, $k failures"
[ "$k" = 0 ]
