#!/usr/bin/env bash
# Regenerates the checked-in PTX of this corpus: NAME.cu -> NAME.ptx with CUDA's nvcc, then the
# host programs that embed it (mkhost.py). Without nvcc it says so and keeps the files as they are.
#   tests/ptx/cu/regen.sh            rewrite NAME.ptx next to every NAME.cu, then the host programs
#   tests/ptx/cu/regen.sh --check    write into a temporary folder and diff against the checked-in
#                                    files instead; exit 1 when any differs (the lit test runs this)
# NVCC=/path/to/nvcc overrides the compiler (default /usr/local/cuda/bin/nvcc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
check=0
[ "${1:-}" = --check ] && check=1

if [ ! -x "$nvcc" ]; then
  echo "regen.sh: SKIPPED: nvcc not found at $nvcc (set NVCC=...); the checked-in .ptx files were not" >&2
  echo "regen.sh: regenerated or checked" >&2
  exit 0
fi

out=$here
if [ $check = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
status=0
for cu in "$here"/*.cu; do
  name=$(basename "$cu" .cu)
  # -arch=sm_90: the target the host programs name (#nvvm.target<chip = "sm_90">)
  "$nvcc" -ptx -arch=sm_90 "$cu" -o "$out/$name.ptx"
  if [ $check = 1 ] && ! diff -u "$here/$name.ptx" "$out/$name.ptx"; then
    echo "regen.sh: $name.ptx is out of date with $name.cu (run tests/ptx/cu/regen.sh)" >&2
    status=1
  fi
done
if [ $check = 0 ]; then
  python3 "$here/mkhost.py"
  echo "regen.sh: regenerated $(ls "$here"/*.cu | wc -l) PTX files with $("$nvcc" --version | tail -1)"
fi
exit $status
