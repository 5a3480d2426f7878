// PTX kernels whose registers are affine in the thread id and whose bounds guards branch over one
// block (Inputs/exec/affine.ptx; ptx_affine.c computes those registers once per block and splits
// the guard's threads at their cut): a 32-bit index that wraps in the block before its signed
// widening (the columns are computed then) and one that does not (unsigned), an index taken back
// through the wrap; a guard whose cut is 0, inside the first block, at its end, inside the second
// block and past the last thread, the same guard negated (the threads at or above the cut store),
// and one whose compared values wrap in the block; an address with a register that is not affine
// in it; a block of two rows (a grid of addresses) and of two layers (%tid.y not affine there),
// with a guard that lets one layer through; an entry register written twice, once the same in
// every block; and a store past a memref's end through an affine register reported as the same
// store through a register that is not affine is.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/affine.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s

// CHECK: [2147483644,  2147483645,  2147483646,  2147483647,  -2147483648,  -2147483647,  -2147483646,  -2147483645,  2147483644,  2147483645,  2147483646,  2147483647,  2147483648,  2147483649,  2147483650,  2147483651,  0,  1,  2,  3,  4,  5,  6,  7]
// CHECK: n 0
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [100,  101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115]
// CHECK: n 5
// CHECK: [1,  2,  3,  4,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [0,  0,  0,  0,  0,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115]
// CHECK: n 8
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  108,  109,  110,  111,  112,  113,  114,  115]
// CHECK: n 13
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  0,  0,  0]
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  113,  114,  115]
// CHECK: n 16
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16]
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [0,  0,  2,  0,  4,  0,  6,  0,  0,  1,  0,  3,  0,  5,  0,  7]
// CHECK: [1,  1,  1,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [5,  7,  9,  11,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [100,  101,  102,  103,  104,  105,  106,  107,  0,  0,  0,  0,  0,  0,  0,  0,  7,  7,  7,  7,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  7,  7,  7,  7,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [100,  101,  102,  103,  104,  105,  106,  107,  100,  101,  102,  103,  104,  105,  106,  107,  7,  7,  7,  7,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  7,  7,  7,  7,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
module attributes {gpu.container_module} {
  gpu.binary @affine [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)

  func.func @ptr32(%m: memref<?xi32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }

  func.func @show(%m: memref<?xi32>, %n: index) {
    %host = memref.alloc (%n) : memref<?xi32>
    gpu.memcpy %host, %m : memref<?xi32>, memref<?xi32>
    %u = memref.cast %host : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<?xi32>
    return
  }

  func.func @guards(%n: i32) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32
    %lo = gpu.alloc (%c16) : memref<?xi32>
    %hi = gpu.alloc (%c16) : memref<?xi32>
    gpu.memset %lo, %z : memref<?xi32>, i32
    gpu.memset %hi, %z : memref<?xi32>, i32
    %pl = call @ptr32(%lo) : (memref<?xi32>) -> !llvm.ptr
    %ph = call @ptr32(%hi) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @affine::@below blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%pl : !llvm.ptr, %n : i32)
    gpu.launch_func @affine::@above blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%ph : !llvm.ptr, %n : i32)
    vector.print str "n "
    vector.print %n : i32
    call @show(%lo, %c16) : (memref<?xi32>, index) -> ()
    call @show(%hi, %c16) : (memref<?xi32>, index) -> ()
    gpu.dealloc %lo : memref<?xi32>
    gpu.dealloc %hi : memref<?xi32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c48 = arith.constant 48 : index
    %z = arith.constant 0 : i32
    %w = gpu.alloc (%c24) : memref<?xi64>
    %wi = memref.extract_aligned_pointer_as_index %w : memref<?xi64> -> index
    %ww = arith.index_cast %wi : index to i64
    %wp = llvm.inttoptr %ww : i64 to !llvm.ptr
    gpu.launch_func @affine::@wrap blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%wp : !llvm.ptr)
    %wh = memref.alloc (%c24) : memref<?xi64>
    gpu.memcpy %wh, %w : memref<?xi64>, memref<?xi64>
    %wu = memref.cast %wh : memref<?xi64> to memref<*xi64>
    call @printMemrefI64(%wu) : (memref<*xi64>) -> ()
    %n0 = arith.constant 0 : i32
    %n5 = arith.constant 5 : i32
    %n8 = arith.constant 8 : i32
    %n13 = arith.constant 13 : i32
    %n16 = arith.constant 16 : i32
    call @guards(%n0) : (i32) -> ()
    call @guards(%n5) : (i32) -> ()
    call @guards(%n8) : (i32) -> ()
    call @guards(%n13) : (i32) -> ()
    call @guards(%n16) : (i32) -> ()
    %m = gpu.alloc (%c16) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %mp = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @affine::@mixed blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%mp : !llvm.ptr)
    call @show(%m, %c16) : (memref<?xi32>, index) -> ()
    gpu.memset %m, %z : memref<?xi32>, i32
    gpu.launch_func @affine::@wrapcut blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%mp : !llvm.ptr)
    call @show(%m, %c16) : (memref<?xi32>, index) -> ()
    gpu.memset %m, %z : memref<?xi32>, i32
    gpu.launch_func @affine::@twice blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%mp : !llvm.ptr)
    call @show(%m, %c16) : (memref<?xi32>, index) -> ()
    %l = gpu.alloc (%c48) : memref<?xi32>
    gpu.memset %l, %z : memref<?xi32>, i32
    %lp = call @ptr32(%l) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @affine::@layers blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%lp : !llvm.ptr)
    call @show(%l, %c48) : (memref<?xi32>, index) -> ()
    gpu.launch_func @affine::@layers blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c2) args(%lp : !llvm.ptr)
    call @show(%l, %c48) : (memref<?xi32>, index) -> ()
    gpu.dealloc %w : memref<?xi64>
    memref.dealloc %wh : memref<?xi64>
    gpu.dealloc %m : memref<?xi32>
    gpu.dealloc %l : memref<?xi32>
    return
  }
}

// -----

// CHECK: {{^}}@affine.ptx:[[#AFF:]]:3: error: 'st.global.u32' op out-of-bounds store: bytes [24, 28) of the memref passed as kernel operand 0: element 6 is not in [0, 6) (thread (6, 0, 0) of block (0, 0, 0))
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @affine [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<6xi32>
    gpu.launch_func @affine::@oob_aff blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<6xi32>)
    vector.print str "after the launch\n"
    return
  }
}

// -----

// CHECK: {{^}}@affine.ptx:[[#AFF+17]]:3: error: 'st.global.u32' op out-of-bounds store: bytes [24, 28) of the memref passed as kernel operand 0: element 6 is not in [0, 6) (thread (6, 0, 0) of block (0, 0, 0))
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @affine [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<6xi32>
    gpu.launch_func @affine::@oob_col blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<6xi32>)
    vector.print str "after the launch\n"
    return
  }
}
