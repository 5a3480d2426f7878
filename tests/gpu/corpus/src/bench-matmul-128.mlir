// C = A x B for 128 x 128 f32 (A[i][k] = (i + k) mod 7, B[k][j] = (k * j) mod 5), one thread per
// element of C in 16 x 16 blocks; prints the sum of C. Written by tests/gpu/corpus/gen_bench.py.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @matmul(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 128 : index
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
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<128x128xf32>
        %y = memref.load %b[%k, %j] : memref<128x128xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %acc, %p : f32
        scf.yield %q : f32
      }
      memref.store %s, %c[%i, %j] : memref<128x128xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 128 : index
    %g = arith.constant 8 : index
    %ha = memref.alloc() : memref<128x128xf32>
    %hb = memref.alloc() : memref<128x128xf32>
    %hc = memref.alloc() : memref<128x128xf32>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c7 : index
        %p = arith.muli %i, %j : index
        %r = arith.remui %p, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %ri = arith.index_cast %r : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %rf = arith.sitofp %ri : i32 to f32
        memref.store %mf, %ha[%i, %j] : memref<128x128xf32>
        memref.store %rf, %hb[%i, %j] : memref<128x128xf32>
      }
    }
    %da = gpu.alloc () : memref<128x128xf32>
    %db = gpu.alloc () : memref<128x128xf32>
    %dc = gpu.alloc () : memref<128x128xf32>
    gpu.memcpy %da, %ha : memref<128x128xf32>, memref<128x128xf32>
    gpu.memcpy %db, %hb : memref<128x128xf32>, memref<128x128xf32>
    gpu.launch_func @k::@matmul blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1) args(%da : memref<128x128xf32>, %db : memref<128x128xf32>, %dc : memref<128x128xf32>)
    gpu.memcpy %hc, %dc : memref<128x128xf32>, memref<128x128xf32>
    gpu.dealloc %da : memref<128x128xf32>
    gpu.dealloc %db : memref<128x128xf32>
    gpu.dealloc %dc : memref<128x128xf32>
    %zero = arith.constant 0 : i64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%t = %zero) -> (i64) {
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%u = %t) -> (i64) {
        %v = memref.load %hc[%i, %j] : memref<128x128xf32>
        %vi = arith.fptosi %v : f32 to i64
        %w = arith.addi %u, %vi : i64
        scf.yield %w : i64
      }
      scf.yield %row : i64
    }
    vector.print %sum : i64
    memref.dealloc %ha : memref<128x128xf32>
    memref.dealloc %hb : memref<128x128xf32>
    memref.dealloc %hc : memref<128x128xf32>
    return
  }
}
