#!/usr/bin/env python3
"""Writes the benchmark programs of the GPU corpus (tests/gpu/corpus/src/bench-matmul-N.mlir):
C = A x B for N x N f32 matrices of small integers (so every sum is exact on every device), one
thread per element of C in 16 x 16 blocks, the host summing C and printing the sum. run.sh times
them on the simulator and the GPU and prints the ratio.

    tests/gpu/corpus/gen_bench.py OUTDIR N...
"""
import sys

TEMPLATE = """// C = A x B for {n} x {n} f32 (A[i][k] = (i + k) mod 7, B[k][j] = (k * j) mod 5), one thread per
// element of C in 16 x 16 blocks; prints the sum of C. Written by tests/gpu/corpus/gen_bench.py.
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @matmul(%a: memref<{n}x{n}xf32>, %b: memref<{n}x{n}xf32>, %c: memref<{n}x{n}xf32>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant {n} : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %i0 = arith.muli %by, %c16 : index
      %i = arith.addi %i0, %ty : index
      %j0 = arith.muli %bx, %c16 : index
      %j = arith.addi %j0, %tx : index
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {{
        %x = memref.load %a[%i, %k] : memref<{n}x{n}xf32>
        %y = memref.load %b[%k, %j] : memref<{n}x{n}xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %acc, %p : f32
        scf.yield %q : f32
      }}
      memref.store %s, %c[%i, %j] : memref<{n}x{n}xf32>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant {n} : index
    %g = arith.constant {g} : index
    %ha = memref.alloc() : memref<{n}x{n}xf32>
    %hb = memref.alloc() : memref<{n}x{n}xf32>
    %hc = memref.alloc() : memref<{n}x{n}xf32>
    scf.for %i = %c0 to %n step %c1 {{
      scf.for %j = %c0 to %n step %c1 {{
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c7 : index
        %p = arith.muli %i, %j : index
        %r = arith.remui %p, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %ri = arith.index_cast %r : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %rf = arith.sitofp %ri : i32 to f32
        memref.store %mf, %ha[%i, %j] : memref<{n}x{n}xf32>
        memref.store %rf, %hb[%i, %j] : memref<{n}x{n}xf32>
      }}
    }}
    %da = gpu.alloc () : memref<{n}x{n}xf32>
    %db = gpu.alloc () : memref<{n}x{n}xf32>
    %dc = gpu.alloc () : memref<{n}x{n}xf32>
    gpu.memcpy %da, %ha : memref<{n}x{n}xf32>, memref<{n}x{n}xf32>
    gpu.memcpy %db, %hb : memref<{n}x{n}xf32>, memref<{n}x{n}xf32>
    gpu.launch_func @k::@matmul blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1) args(%da : memref<{n}x{n}xf32>, %db : memref<{n}x{n}xf32>, %dc : memref<{n}x{n}xf32>)
    gpu.memcpy %hc, %dc : memref<{n}x{n}xf32>, memref<{n}x{n}xf32>
    gpu.dealloc %da : memref<{n}x{n}xf32>
    gpu.dealloc %db : memref<{n}x{n}xf32>
    gpu.dealloc %dc : memref<{n}x{n}xf32>
    %zero = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%t = %zero) -> (i64) {{
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%u = %t) -> (i64) {{
        %v = memref.load %hc[%i, %j] : memref<{n}x{n}xf32>
        %vi = arith.fptosi %v : f32 to i64
        %w = arith.addi %u, %vi : i64
        scf.yield %w : i64
      }}
      scf.yield %row : i64
    }}
    vector.print %sum : i64
    memref.dealloc %ha : memref<{n}x{n}xf32>
    memref.dealloc %hb : memref<{n}x{n}xf32>
    memref.dealloc %hc : memref<{n}x{n}xf32>
    return
  }}
}}
"""

def main():
    out = sys.argv[1]
    for n in map(int, sys.argv[2:]):
        assert n % 16 == 0, "N must be a multiple of 16"
        with open(f"{out}/bench-matmul-{n}.mlir", "w") as f:
            f.write(TEMPLATE.format(n=n, g=n // 16))

if __name__ == "__main__":
    main()
