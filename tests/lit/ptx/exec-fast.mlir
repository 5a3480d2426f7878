// PTX kernels at the edges of the per-block fast paths a vector add takes (Inputs/exec/fast.ptx;
// kernel_ptx.c): the thread id, its widening and the index, affine registers read as values too
// (their columns made from their words), in blocks of 8 and of 16; whole-column f32 add, sub and
// mul, an immediate operand among them, with NaNs of each sign and payload, an infinity against its
// negation (every NaN the canonical 0x7fffffff); and mlir-opt's vector add over
// three memrefs, run twice on the same buffers (the spans probed for each in turn, block after
// block), whose checks the fast paths keep: a store past the end of the shortest memref, reported
// at its element and thread; a read of device memory nothing wrote; and two unordered launches
// storing different sums to the same buffer, a race between launches.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/fast.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s

// CHECK: [0,  2,  4,  6,  8,  10,  12,  14,  8,  10,  12,  14,  16,  18,  20,  22,  16,  18,  20,  22,  24,  26,  28,  30,  24,  26,  28,  30,  32,  34,  36,  38]
// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7]
// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// add, sub, mul of (x, y) and y + 1.0 in thread x, as bits: x = 3 and 9 a NaN y (negative, then
// signalling), x = 12 an infinity against its negation
// CHECK: [1065353216,  -1082130432,  0,  1073741824,  1073741824,  0,  1065353216,  1073741824,  1077936128,  1065353216,  1073741824,  1073741824,  2147483647,  2147483647,  2147483647,  2147483647,  1084227584,  1077936128,  1082130432,  1073741824,  1086324736,  1082130432,  1084227584,  1073741824,  1088421888,  1084227584,  1086324736,  1073741824,  1090519040,  1086324736,  1088421888,  1073741824,  1091567616,  1088421888,  1090519040,  1073741824,  2147483647,  2147483647,  2147483647,  2147483647,  1093664768,  1091567616,  1092616192,  1073741824,  1094713344,  1092616192,  1093664768,  1073741824,  2147483647,  2139095040,  -8388608,  -8388608,  1096810496,  1094713344,  1095761920,  1073741824,  1097859072,  1095761920,  1096810496,  1073741824,  1098907648,  1096810496,  1097859072,  1073741824]
// CHECK: [3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
// CHECK: [3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
module attributes {gpu.container_module} {
  gpu.binary @fast [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @ptr(%m: memref<?xi32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }

  func.func @ptr64(%m: memref<?xi64>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xi64> -> index
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

  func.func @show64(%m: memref<?xi64>, %n: index) {
    %host = memref.alloc (%n) : memref<?xi64>
    gpu.memcpy %host, %m : memref<?xi64>, memref<?xi64>
    %u = memref.cast %host : memref<?xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    memref.dealloc %host : memref<?xi64>
    return
  }


  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c20 = arith.constant 20 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %o = gpu.alloc (%c32) : memref<?xi32>
    %o64 = gpu.alloc (%c32) : memref<?xi64>
    %op = call @ptr(%o) : (memref<?xi32>) -> !llvm.ptr
    %op64 = call @ptr64(%o64) : (memref<?xi64>) -> !llvm.ptr
    gpu.launch_func @fast::@ids blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%op : !llvm.ptr, %op64 : !llvm.ptr)
    call @show(%o, %c32) : (memref<?xi32>, index) -> ()
    call @show64(%o64, %c32) : (memref<?xi64>, index) -> ()
    gpu.launch_func @fast::@ids blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%op : !llvm.ptr, %op64 : !llvm.ptr)
    call @show64(%o64, %c32) : (memref<?xi64>, index) -> ()
    %f = gpu.alloc (%c64) : memref<?xi32>
    %fp = call @ptr(%f) : (memref<?xi32>) -> !llvm.ptr
    gpu.launch_func @fast::@nans blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%fp : !llvm.ptr)
    call @show(%f, %c64) : (memref<?xi32>, index) -> ()
    %a = gpu.alloc (%c20) : memref<?xf32>
    %b = gpu.alloc (%c20) : memref<?xf32>
    %c = gpu.alloc (%c20) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %n = arith.constant 20 : index
    gpu.launch_func @fast::@vadd blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    %ci = memref.alloc (%c20) : memref<?xf32>
    gpu.memcpy %ci, %c : memref<?xf32>, memref<?xf32>
    %cu = memref.cast %ci : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
    gpu.launch_func @fast::@vadd blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    gpu.memcpy %ci, %c : memref<?xf32>, memref<?xf32>
    call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
    return
  }
}

// -----

// The shortest memref ends inside the third block: its store is out of bounds there, at the
// element and thread the check names, after two launches whose spans passed.
// CHECK: {{^}}@fast.ptx:[[#]]:2: error: 'st.global.b32' op out-of-bounds store: bytes [48, 52) of the memref passed as kernel operand 2: element 12 is not in [0, 12) (thread (4, 0, 0) of block (1, 0, 0))
// CHECK-NOT: after the launch
module attributes {gpu.container_module} {
  gpu.binary @fast [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %c24 = arith.constant 24 : index
    %a = gpu.alloc (%c24) : memref<?xf32>
    %b = gpu.alloc (%c24) : memref<?xf32>
    %c = gpu.alloc (%c12) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %one : memref<?xf32>, f32
    gpu.launch_func @fast::@vadd blocks in (%c3, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %a : memref<?xf32>, %c24 : index)
    gpu.launch_func @fast::@vadd blocks in (%c3, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %b : memref<?xf32>, %c24 : index)
    gpu.launch_func @fast::@vadd blocks in (%c3, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %c24 : index)
    vector.print str "after the launch\n"
    return
  }
}

// -----

// b was never written: the vector add's loads of it are reads of undefined device memory.
// CHECK: error: 'gpu.launch_func' @fast::@vadd ({{.*}}) reads bytes [0, 64) of the device memory allocated by 'gpu.alloc' ({{.*}}) before anything wrote them [uninitialized]
module attributes {gpu.container_module} {
  gpu.binary @fast [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc (%c16) : memref<?xf32>
    %b = gpu.alloc (%c16) : memref<?xf32>
    %c = gpu.alloc (%c16) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.launch_func @fast::@vadd blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %c16 : index)
    return
  }
}

// -----

// Two launches that nothing orders store different sums to c: a race between them.
// CHECK: error: data race (write-write): 'gpu.launch_func' @fast::@vadd ({{.*}}) writes and 'gpu.launch_func' @fast::@vadd ({{.*}}) writes bytes [0, 64) of the device memory allocated by 'gpu.alloc' ({{.*}}); nothing orders the two [race]
module attributes {gpu.container_module} {
  gpu.binary @fast [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc (%c16) : memref<?xf32>
    %b = gpu.alloc (%c16) : memref<?xf32>
    %c = gpu.alloc (%c16) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @fast::@vadd blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %c16 : index)
    %t2 = gpu.launch_func async [%t0] @fast::@vadd blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %a : memref<?xf32>, %c : memref<?xf32>, %c16 : index)
    gpu.wait [%t1, %t2]
    return
  }
}
