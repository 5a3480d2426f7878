// Launches of small one-row blocks run several blocks as one frame (block-wise kernels,
// kernel/kernel.c): every thread must still see its own block and thread ids. 37 blocks of 24
// threads (the last frame holds fewer blocks than the others) write their block id, thread id and
// global id; the host counts the elements that differ from what the index says. The same kernel
// over a 2-D grid, and over blocks of two rows, runs one block per frame, as do large blocks.
// @flat computes its index as block_id x * block_dim x + thread_id x (which a block-wise frame
// computes as its first block times 24 plus its thread, not running the ids it needs only for
// that), in both operand orders, once with the product used elsewhere too; and in blocks of
// 12 x 2 and of 300 threads (one block per frame), whose thread ids are filled row by row.
// RUN: %gpuinterp %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=random:3 %s 2>&1 | FileCheck %s
// CHECK: 0
// CHECK-NEXT: 36
// CHECK-NEXT: 18
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NOT: error
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ids(%b: memref<?xi64>, %t: memref<?xi64>, %g: memref<?xi64>, %n: index) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bd = gpu.block_dim x
      %bdy = gpu.block_dim y
      %gx = gpu.grid_dim x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %gid = gpu.global_id x
      // i = ((by * gx + bx) * bdy + ty) * bd + tx: one element per thread
      %r0 = arith.muli %by, %gx : index
      %r1 = arith.addi %r0, %bx : index
      %r2 = arith.muli %r1, %bdy : index
      %r3 = arith.addi %r2, %ty : index
      %r4 = arith.muli %r3, %bd : index
      %i = arith.addi %r4, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %b64 = arith.index_cast %r1 : index to i64
        %t0 = arith.muli %ty, %bd : index
        %t1 = arith.addi %t0, %tx : index
        %t64 = arith.index_cast %t1 : index to i64
        %g64 = arith.index_cast %gid : index to i64
        memref.store %b64, %b[%i] : memref<?xi64>
        memref.store %t64, %t[%i] : memref<?xi64>
        memref.store %g64, %g[%i] : memref<?xi64>
      }
      gpu.return
    }
    gpu.func @flat(%b: memref<?xi64>, %t: memref<?xi64>, %g: memref<?xi64>, %n: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bd, %bx : index
      %i = arith.addi %tx, %i0 : index
      %bx2 = gpu.block_id x
      %j0 = arith.muli %bx2, %bd : index
      %j = arith.addi %j0, %tx : index
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %t1 = arith.subi %j, %j0 : index
        %b64 = arith.index_cast %bx2 : index to i64
        %t64 = arith.index_cast %t1 : index to i64
        %g64 = arith.index_cast %i : index to i64
        memref.store %b64, %b[%i] : memref<?xi64>
        memref.store %t64, %t[%j] : memref<?xi64>
        memref.store %g64, %g[%i] : memref<?xi64>
      }
      gpu.return
    }
  }
  // elements i < n where b != i / per, t != i % per, or (when gx) g != (i / per) % gx * bd + i % bd
  func.func @bad(%b: memref<?xi64>, %t: memref<?xi64>, %g: memref<?xi64>, %n: index, %per: index, %bd: index,
                 %gx: index) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
      %eb = arith.divui %i, %per : index
      %et = arith.remui %i, %per : index
      %bx = arith.remui %eb, %gx : index
      %tx = arith.remui %i, %bd : index
      %e0 = arith.muli %bx, %bd : index
      %eg = arith.addi %e0, %tx : index
      %vb = memref.load %b[%i] : memref<?xi64>
      %vt = memref.load %t[%i] : memref<?xi64>
      %vg = memref.load %g[%i] : memref<?xi64>
      %xb = arith.index_cast %eb : index to i64
      %xt = arith.index_cast %et : index to i64
      %xg = arith.index_cast %eg : index to i64
      %d0 = arith.cmpi ne, %vb, %xb : i64
      %d1 = arith.cmpi ne, %vt, %xt : i64
      %d2 = arith.cmpi ne, %vg, %xg : i64
      %d01 = arith.ori %d0, %d1 : i1
      %d = arith.ori %d01, %d2 : i1
      %inc = arith.select %d, %one, %z : i64
      %next = arith.addi %acc, %inc : i64
      scf.yield %next : i64
    }
    return %r : i64
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c12 = arith.constant 12 : index
    %c24 = arith.constant 24 : index
    %c37 = arith.constant 37 : index
    %c300 = arith.constant 300 : index
    %n = arith.constant 883 : index
    %big = arith.constant 2048 : index
    %b = memref.alloc(%big) : memref<?xi64>
    %t = memref.alloc(%big) : memref<?xi64>
    %g = memref.alloc(%big) : memref<?xi64>
    %db = gpu.alloc (%big) : memref<?xi64>
    %dt = gpu.alloc (%big) : memref<?xi64>
    %dg = gpu.alloc (%big) : memref<?xi64>
    gpu.memcpy %db, %b : memref<?xi64>, memref<?xi64>
    gpu.memcpy %dt, %t : memref<?xi64>, memref<?xi64>
    gpu.memcpy %dg, %g : memref<?xi64>, memref<?xi64>
    // 37 blocks of 24 threads, 883 elements: the last block has 19 threads with work
    gpu.launch_func @k::@ids blocks in (%c37, %c1, %c1) threads in (%c24, %c1, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e1 = func.call @bad(%b, %t, %g, %n, %c24, %c24, %c37) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e1) : (i64) -> ()
    %last = arith.constant 882 : index
    %lb = memref.load %b[%last] : memref<?xi64>
    %lt = memref.load %t[%last] : memref<?xi64>
    func.call @p(%lb) : (i64) -> ()
    func.call @p(%lt) : (i64) -> ()
    // a 2-D grid of 5 x 2 blocks of 24: 240 elements, block (x, y) is block y * 5 + x
    %n2 = arith.constant 240 : index
    gpu.launch_func @k::@ids blocks in (%c5, %c2, %c1) threads in (%c24, %c1, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n2 : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e2 = func.call @bad(%b, %t, %g, %n2, %c24, %c24, %c5) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e2) : (i64) -> ()
    // blocks of 12 x 2 threads (global id x is block x * 12 + thread x)
    gpu.launch_func @k::@ids blocks in (%c37, %c1, %c1) threads in (%c12, %c2, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e3 = func.call @bad(%b, %t, %g, %n, %c24, %c12, %c37) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e3) : (i64) -> ()
    // 7 blocks of 300 threads: one block per frame
    %n4 = arith.constant 2048 : index
    %c7 = arith.constant 7 : index
    gpu.launch_func @k::@ids blocks in (%c7, %c1, %c1) threads in (%c300, %c1, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n4 : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e4 = func.call @bad(%b, %t, %g, %n4, %c300, %c300, %c7) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e4) : (i64) -> ()
    // @flat: 37 blocks of 24 threads, 883 elements
    gpu.launch_func @k::@flat blocks in (%c37, %c1, %c1) threads in (%c24, %c1, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e5 = func.call @bad(%b, %t, %g, %n, %c24, %c24, %c37) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e5) : (i64) -> ()
    // @flat: 37 blocks of 12 x 2 threads (the rows store the same), 444 elements
    %n6 = arith.constant 444 : index
    gpu.launch_func @k::@flat blocks in (%c37, %c1, %c1) threads in (%c12, %c2, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n6 : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e6 = func.call @bad(%b, %t, %g, %n6, %c12, %c12, %c37) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e6) : (i64) -> ()
    // @flat: 7 blocks of 300 threads, 2048 elements
    gpu.launch_func @k::@flat blocks in (%c7, %c1, %c1) threads in (%c300, %c1, %c1)
        args(%db : memref<?xi64>, %dt : memref<?xi64>, %dg : memref<?xi64>, %n4 : index)
    gpu.memcpy %b, %db : memref<?xi64>, memref<?xi64>
    gpu.memcpy %t, %dt : memref<?xi64>, memref<?xi64>
    gpu.memcpy %g, %dg : memref<?xi64>, memref<?xi64>
    %e7 = func.call @bad(%b, %t, %g, %n4, %c300, %c300, %c7) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, index, index, index, index) -> i64
    func.call @p(%e7) : (i64) -> ()
    gpu.dealloc %db : memref<?xi64>
    gpu.dealloc %dt : memref<?xi64>
    gpu.dealloc %dg : memref<?xi64>
    memref.dealloc %b : memref<?xi64>
    memref.dealloc %t : memref<?xi64>
    memref.dealloc %g : memref<?xi64>
    return
  }
  func.func @p(%v: i64) {
    func.call @printI64(%v) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
