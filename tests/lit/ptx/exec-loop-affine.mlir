// PTX registers affine in the thread id with several writes (Inputs/exec/loop-affine.ptx;
// ptx_affine.c, loop_writes): a loop's count and an address it moves on keep u and the steps while
// all of the block's threads run their writes, and make their columns when the threads part
// there (x_aff). A loop whose threads leave it one turn after another, its address moved through
// another register and read only by the store after it; a register written on both sides of an
// if (not affine); an address moved a row a turn, run as far as the buffer goes, one row past
// it (the out-of-bounds store reported as the same store through an address moved under a
// guard, which is not affine, is), and by two blocks at once (both write the same values to the
// same 96 bytes: a benign race, a note, as for the guarded twin).

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/loop-affine.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s

// CHECK: [1064,  1132,  1200,  1268,  1336,  1404,  1472,  1540,  1064,  1132,  1200,  1268,  1336,  1404,  1472,  1540,  1,  2,  3,  4,  5,  6,  7,  8,  1,  2,  3,  4,  5,  6,  7,  8]
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  100,  0,  0,  0,  0,  0,  0,  0,  0,  101,  0,  0,  0,  0,  0,  0,  0,  0,  102,  0,  0,  0,  0,  0,  0,  0,  0,  103,  0,  0,  0,  0,  0,  0,  0,  0,  104,  0,  0,  0,  0,  0,  0,  0,  0,  105,  0,  0,  0,  0,  0,  0,  0,  0,  106,  0,  0,  0,  0,  0,  0,  0,  0,  107]
// CHECK: [200,  107,  210,  121,  220,  135,  230,  149,
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,  2,  2,  2,  2,  2,  2,  2,  2,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,  2,  2,  2,  2,  2,  2,  2,  2,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: {{^}}@la.ptx:101:3: error: kernel store: bytes [96, 100) are out of bounds of the 96-byte device memory allocated by 'gpu.alloc'
// CHECK: {{^}}@la.ptx:101:3: note: the access of thread (0, 0, 0) of block (0, 0, 0)
// CHECK: {{^}}@la.ptx:123:3: error: kernel store: bytes [96, 100) are out of bounds of the 96-byte device memory allocated by 'gpu.alloc'
// CHECK: {{^}}@la.ptx:123:3: note: the access of thread (0, 0, 0) of block (0, 0, 0)
// CHECK: {{^}}@la.ptx:101:3: note: 'st.global.u32' op benign race in global memory: block (1, 0, 0) writes 96 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there at 'st.global.u32' (101:3); blocks of one launch are not ordered; reported once per launch
// CHECK: {{^}}@la.ptx:123:3: note: 'st.global.u32' op benign race in global memory: block (1, 0, 0) writes 96 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there at 'st.global.u32' (123:3); blocks of one launch are not ordered; reported once per launch
// CHECK-NOT: data race
// CHECK: gpuinterp: 2 errors

module attributes {gpu.container_module} {
  gpu.binary @la [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
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
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0 : i32
    %n3 = arith.constant 3 : i32
    %m = gpu.alloc (%c32) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %p = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@diverge blocks in (%c1, %c1, %c1) threads in (%c8, %c2, %c1) args(%p : !llvm.ptr)
    call @show(%m, %c32) : (memref<?xi32>, index) -> ()
    %c72 = arith.constant 72 : index
    %mv = gpu.alloc (%c72) : memref<?xi32>
    gpu.memset %mv, %z : memref<?xi32>, i32
    %pv = call @ptr32(%mv) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@moved blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%pv : !llvm.ptr)
    call @show(%mv, %c72) : (memref<?xi32>, index) -> ()
    gpu.dealloc %mv : memref<?xi32>
    gpu.launch_func @la::@twopaths blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr)
    call @show(%m, %c32) : (memref<?xi32>, index) -> ()
    gpu.memset %m, %z : memref<?xi32>, i32
    gpu.launch_func @la::@rows blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n3 : i32)
    call @show(%m, %c32) : (memref<?xi32>, index) -> ()
    gpu.memset %m, %z : memref<?xi32>, i32
    gpu.launch_func @la::@rows_col blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n3 : i32)
    call @show(%m, %c32) : (memref<?xi32>, index) -> ()
    gpu.dealloc %m : memref<?xi32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @la [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
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
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %z = arith.constant 0 : i32
    %n = arith.constant 4 : i32
    %m = gpu.alloc (%c24) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %p = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@rows blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n : i32)
    call @show(%m, %c24) : (memref<?xi32>, index) -> ()
    gpu.dealloc %m : memref<?xi32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @la [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
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
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %z = arith.constant 0 : i32
    %n = arith.constant 4 : i32
    %m = gpu.alloc (%c24) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %p = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@rows_col blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n : i32)
    call @show(%m, %c24) : (memref<?xi32>, index) -> ()
    gpu.dealloc %m : memref<?xi32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @la [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
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
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %z = arith.constant 0 : i32
    %n = arith.constant 3 : i32
    %m = gpu.alloc (%c24) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %p = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@rows blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n : i32)
    call @show(%m, %c24) : (memref<?xi32>, index) -> ()
    gpu.dealloc %m : memref<?xi32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @la [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
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
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %z = arith.constant 0 : i32
    %n = arith.constant 3 : i32
    %m = gpu.alloc (%c24) : memref<?xi32>
    gpu.memset %m, %z : memref<?xi32>, i32
    %p = call @ptr32(%m) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @la::@rows_col blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %n : i32)
    call @show(%m, %c24) : (memref<?xi32>, index) -> ()
    gpu.dealloc %m : memref<?xi32>
    return
  }
}
