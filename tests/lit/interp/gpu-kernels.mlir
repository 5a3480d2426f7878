// Kernel features in gpu.func kernels: workgroup attributions and a shared-memory tree reduction
// with barriers inside scf.while and a divergent scf.if; scf.for with per-thread bounds,
// private attributions, memref.atomic_rmw, lane and subgroup ids, gpu.subgroup_reduce, dynamic
// shared memory viewed as i32 (memref.view); a 2-D block with scf.if/else results; and scf.while
// with a per-thread trip count; a small matmul in 2-D blocks.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %gpuinterp --sched=serial %s | FileCheck %s
// Row sums of 0..255 in rows of 64:
// CHECK: [2016,  6112,  10208,  14304]
// 64 atomic increments:
// CHECK: [64]
// Thread t: 1000 * subgroup + sum of the lanes of its warp (496) + sum of 0..t-1.
// CHECK: [496,  496,  497,  499,  502,  506,  511,  517,  524,  532,  541,  551,  562,  574,  587,  601,  616,  632,  649,  667,  686,  706,  727,  749,  772,  796,  821,  847,  874,  902,  931,  961,  1992,  2024,  2057,  2091,  2126,  2162,  2199,  2237,  2276,  2316,  2357,  2399,  2442,  2486,  2531,  2577,  2624,  2672,  2721,  2771,  2822,  2874,  2927,  2981,  3036,  3092,  3149,  3207,  3266,  3326,  3387,  3449]
// (x, y) in a 3x2 block: x + 10 * y on the diagonal-ish half, -(x + 10 * y) elsewhere
// CHECK: {{\[\[}}0,   -1,   -2],
// CHECK-NEXT: [10,   11,   -12]]
// Collatz steps of 1..8, from an scf.while whose trip count differs per thread:
// CHECK: [0,  1,  7,  2,  5,  8,  16,  3]
// C = A B for A[i][k] = i + k, B[k][j] = k - j:
// CHECK: {{\[\[}}140,   112,   84,   56,   28,   0,   -28,   -56],
// CHECK-NEXT: [168,   132,   96,   60,   24,   -12,   -48,   -84],
// CHECK: [336,   252,   168,   84,   0,   -84,   -168,   -252]]
module attributes {gpu.container_module} {
  gpu.module @k {
    // tree reduction in workgroup memory with barriers; one block per row
    gpu.func @rowsum(%in: memref<4x64xf32>, %out: memref<4xf32>) workgroup(%sh: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = memref.load %in[%bx, %tx] : memref<4x64xf32>
      memref.store %v, %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = gpu.block_dim x
      %h0 = arith.divui %n, %c2 : index
      %r = scf.while (%h = %h0) : (index) -> index {
        %go = arith.cmpi ugt, %h, %c0 : index
        scf.condition(%go) %h : index
      } do {
      ^bb0(%h: index):
        %in_half = arith.cmpi ult, %tx, %h : index
        scf.if %in_half {
          %j = arith.addi %tx, %h : index
          %a = memref.load %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<64xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %a, %b : f32
          memref.store %s, %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %h2 = arith.divui %h, %c2 : index
        scf.yield %h2 : index
      }
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        %t = memref.load %sh[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bx] : memref<4xf32>
      }
      gpu.return
    }
    // scf.for with per-thread bounds, private memory, atomics, subgroup ops, dynamic shared memory
    gpu.func @misc(%acc: memref<1xi32>, %o: memref<64xi32>) private(%p: memref<2xi32, #gpu.address_space<private>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      %s = scf.for %i = %c0 to %tx step %c1 iter_args(%a = %zero) -> (i32) {
        %ii = arith.index_cast %i : index to i32
        %b = arith.addi %a, %ii : i32
        scf.yield %b : i32
      }
      memref.store %s, %p[%c0] : memref<2xi32, #gpu.address_space<private>>
      %s2 = memref.load %p[%c0] : memref<2xi32, #gpu.address_space<private>>
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %acc[%c0] : (i32, memref<1xi32>) -> i32
      %lane = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %lanei = arith.index_cast %lane : index to i32
      %red = gpu.subgroup_reduce add %lanei : (i32) -> (i32)
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %red, %view[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %rev = arith.subi %c63, %tx : index
      %w = memref.load %view[%rev] : memref<64xi32, #gpu.address_space<workgroup>>
      %sgi = arith.index_cast %sg : index to i32
      %k1000 = arith.constant 1000 : i32
      %t1 = arith.muli %sgi, %k1000 : i32
      %t2 = arith.addi %t1, %w : i32
      %t3 = arith.addi %t2, %s2 : i32
      memref.store %t3, %o[%tx] : memref<64xi32>
      gpu.return
    }
    // scf.while whose trip count differs per thread: Collatz steps of tx + 1
    gpu.func @collatz(%o: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %t = arith.index_cast %tx : index to i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %n0 = arith.addi %t, %c1 : i32
      %r:2 = scf.while (%n = %n0, %s = %c0) : (i32, i32) -> (i32, i32) {
        %gt = arith.cmpi sgt, %n, %c1 : i32
        scf.condition(%gt) %n, %s : i32, i32
      } do {
      ^bb0(%n: i32, %s: i32):
        %rem = arith.remui %n, %c2 : i32
        %even = arith.cmpi eq, %rem, %c0 : i32
        %half = arith.divui %n, %c2 : i32
        %m3 = arith.muli %n, %c3 : i32
        %odd = arith.addi %m3, %c1 : i32
        %next = arith.select %even, %half, %odd : i32
        %s1 = arith.addi %s, %c1 : i32
        scf.yield %next, %s1 : i32, i32
      }
      memref.store %r#1, %o[%tx] : memref<8xi32>
      gpu.return
    }
    // C = A B with 2x2 blocks of 4x4 threads: loads by thread row and by thread column
    gpu.func @matmul(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %r0 = arith.muli %by, %c4 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c4 : index
      %col = arith.addi %q0, %tx : index
      %z = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %a[%row, %k] : memref<8x8xf32>
        %y = memref.load %b[%k, %col] : memref<8x8xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%row, %col] : memref<8x8xf32>
      gpu.return
    }
    gpu.func @grid2d(%o: memref<2x3xi32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %c10 = arith.constant 10 : index
      %y10 = arith.muli %y, %c10 : index
      %v = arith.addi %x, %y10 : index
      %le = arith.cmpi ule, %x, %y : index
      %r = scf.if %le -> (index) {
        scf.yield %v : index
      } else {
        %c0 = arith.constant 0 : index
        %n = arith.subi %c0, %v : index
        scf.yield %n : index
      }
      %ri = arith.index_cast %r : index to i32
      memref.store %ri, %o[%y, %x] : memref<2x3xi32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc() : memref<4x64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %k = arith.muli %i, %c64 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        memref.store %f, %h[%i, %j] : memref<4x64xf32>
      }
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4x64xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<4x64xf32>, memref<4x64xf32>
    %out, %t3 = gpu.alloc async [%t0] () : memref<4xf32>
    %t4 = gpu.launch_func async [%t2, %t3] @k::@rowsum blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<4x64xf32>, %out : memref<4xf32>)
    %ho = memref.alloc() : memref<4xf32>
    %t5 = gpu.memcpy async [%t4] %ho, %out : memref<4xf32>, memref<4xf32>
    gpu.wait [%t5]
    %u = memref.cast %ho : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()

    %acc = gpu.alloc host_shared () : memref<1xi32>
    %o = gpu.alloc host_shared () : memref<64xi32>
    %z = arith.constant 0 : i32
    gpu.memset %acc, %z : memref<1xi32>, i32
    %smem = arith.constant 256 : i32
    gpu.launch_func @k::@misc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) dynamic_shared_memory_size %smem args(%acc : memref<1xi32>, %o : memref<64xi32>)
    %ua = memref.cast %acc : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
    %uo = memref.cast %o : memref<64xi32> to memref<*xi32>
    call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
    gpu.dealloc %acc : memref<1xi32>
    gpu.dealloc %o : memref<64xi32>
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %g = gpu.alloc host_shared () : memref<2x3xi32>
    gpu.launch_func @k::@grid2d blocks in (%c1, %c1, %c1) threads in (%c3, %c2, %c1) args(%g : memref<2x3xi32>)
    %ug = memref.cast %g : memref<2x3xi32> to memref<*xi32>
    call @printMemrefI32(%ug) : (memref<*xi32>) -> ()
    gpu.dealloc %g : memref<2x3xi32>
    %c8 = arith.constant 8 : index
    %col = gpu.alloc host_shared () : memref<8xi32>
    gpu.launch_func @k::@collatz blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%col : memref<8xi32>)
    %ucol = memref.cast %col : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%ucol) : (memref<*xi32>) -> ()
    gpu.dealloc %col : memref<8xi32>
    %ma = gpu.alloc host_shared () : memref<8x8xf32>
    %mb = gpu.alloc host_shared () : memref<8x8xf32>
    %mc = gpu.alloc host_shared () : memref<8x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %ij = arith.addi %i, %j : index
        %imj = arith.subi %i, %j : index
        %ijn = arith.index_cast %ij : index to i32
        %imjn = arith.index_cast %imj : index to i32
        %fa = arith.sitofp %ijn : i32 to f32
        %fb = arith.sitofp %imjn : i32 to f32
        memref.store %fa, %ma[%i, %j] : memref<8x8xf32>
        memref.store %fb, %mb[%i, %j] : memref<8x8xf32>
      }
    }
    gpu.launch_func @k::@matmul blocks in (%c2, %c2, %c1) threads in (%c4, %c4, %c1) args(%ma : memref<8x8xf32>, %mb : memref<8x8xf32>, %mc : memref<8x8xf32>)
    %umc = memref.cast %mc : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%umc) : (memref<*xf32>) -> ()
    gpu.dealloc %ma : memref<8x8xf32>
    gpu.dealloc %mb : memref<8x8xf32>
    gpu.dealloc %mc : memref<8x8xf32>
    %t6 = gpu.dealloc async [%t5] %d : memref<4x64xf32>
    %t7 = gpu.dealloc async [%t5] %out : memref<4xf32>
    gpu.wait [%t6, %t7]
    return
  }
}
