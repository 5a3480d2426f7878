// Lowered kernels' loads and stores a lane vector at a time (kernel_llvm.c, "whole lane vectors at
// once"): the same kernels as gpu.func and as convert-gpu-to-nvvm lowers them print the same. A
// matmul over 4x2 blocks reads one element per row of threads (a's index steps by rows: checked
// from the index column) and one row of elements (b's index is the thread's x id plus a uniform
// value: known when compiled), and stores rows; a reversal reads with a negative step and stores
// under a mask of every other thread (bounded from the lowest and highest index). @ids, launched
// with two block sizes, stores what it computes once per frame (the block size, the thread id).
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %gpuinterp %t.mlir | FileCheck %s
// RUN: %gpuinterp --sched=serial %t.mlir | FileCheck %s
// CHECK: sizes = [8, 8]
// CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT: [28,   36,   44,   52,   60,   68,   76,   84],
// CHECK-NEXT: [56,   72,   88,   104,   120,   136,   152,   168],
// CHECK-NEXT: [84,   108,   132,   156,   180,   204,   228,   252],
// CHECK-NEXT: [112,   144,   176,   208,   240,   272,   304,   336],
// CHECK-NEXT: [140,   180,   220,   260,   300,   340,   380,   420],
// CHECK-NEXT: [168,   216,   264,   312,   360,   408,   456,   504],
// CHECK-NEXT: [196,   252,   308,   364,   420,   476,   532,   588]]
// CHECK: sizes = [16]
// CHECK-NEXT: [15,  0,  13,  0,  11,  0,  9,  0,  7,  0,  5,  0,  3,  0,  1,  0]
// CHECK: sizes = [16]
// CHECK-NEXT: [400,  401,  402,  403,  400,  401,  402,  403,  800,  801,  802,  803,  804,  805,  806,  807]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mm(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %r0 = arith.muli %by, %c2 : index
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
    gpu.func @ids(%o: memref<16xf32>, %first: index) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %c100 = arith.constant 100 : index
      %h = arith.muli %bd, %c100 : index
      %v = arith.addi %h, %tx : index
      %i0 = arith.muli %bx, %bd : index
      %i1 = arith.addi %i0, %tx : index
      %i = arith.addi %i1, %first : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %o[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @rev(%a: memref<16xf32>, %c: memref<16xf32>) kernel {
      %tx = gpu.thread_id x
      %c15 = arith.constant 15 : index
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %j = arith.subi %c15, %tx : index
      %x = memref.load %a[%j] : memref<16xf32>
      %r = arith.remui %tx, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        memref.store %x, %c[%tx] : memref<16xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc host_shared () : memref<8x8xf32>
    %b = gpu.alloc host_shared () : memref<8x8xf32>
    %c = gpu.alloc host_shared () : memref<8x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %fi = arith.sitofp %ii : i32 to f32
        %fj = arith.sitofp %jj : i32 to f32
        %s = arith.addf %fi, %fj : f32
        memref.store %fi, %a[%i, %j] : memref<8x8xf32>
        memref.store %s, %b[%i, %j] : memref<8x8xf32>
      }
    }
    gpu.launch_func @k::@mm blocks in (%c2, %c4, %c1) threads in (%c4, %c2, %c1) args(%a : memref<8x8xf32>, %b : memref<8x8xf32>, %c : memref<8x8xf32>)
    %v = gpu.alloc host_shared () : memref<16xf32>
    %w = gpu.alloc host_shared () : memref<16xf32>
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      memref.store %fi, %v[%i] : memref<16xf32>
      memref.store %zero, %w[%i] : memref<16xf32>
    }
    gpu.launch_func @k::@rev blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%v : memref<16xf32>, %w : memref<16xf32>)
    %ids = gpu.alloc host_shared () : memref<16xf32>
    gpu.launch_func @k::@ids blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%ids : memref<16xf32>, %c0 : index)
    gpu.launch_func @k::@ids blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%ids : memref<16xf32>, %c8 : index)
    %t = gpu.wait async
    gpu.wait [%t]
    %u = memref.cast %c : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %uw = memref.cast %w : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%uw) : (memref<*xf32>) -> ()
    %ui = memref.cast %ids : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%ui) : (memref<*xf32>) -> ()
    gpu.dealloc %ids : memref<16xf32>
    gpu.dealloc %a : memref<8x8xf32>
    gpu.dealloc %b : memref<8x8xf32>
    gpu.dealloc %c : memref<8x8xf32>
    gpu.dealloc %v : memref<16xf32>
    gpu.dealloc %w : memref<16xf32>
    return
  }
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
