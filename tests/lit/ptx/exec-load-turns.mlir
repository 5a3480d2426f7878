// A matmul's k loop unrolled as mlir-opt's NVPTX back end unrolls it (Inputs/exec/mm-turns.ptx):
// its two loads of A's row through one register at offsets 0 and 4 share a memo that grows along
// the rows as they take turns (ptx_mem.c, load_groups), and each byte read is still the load's
// whose turn it was. Every check reports the same for @mm as for @mm_apart, whose second load goes
// through a register of its own: the products; a race of another block's store with an element
// of A's row the second load reads (element 5), then one the first reads (element 68: row 2,
// element 4), each naming that load and the 4 bytes; a k loop past A's last row (an out-of-bounds
// load of the last block row's last thread row); and A read before anything wrote it.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/mm-turns.ptx %s > %t.mlir
// RUN: not %gpuinterp --split-input-file %t.mlir 2>&1 | FileCheck %s

// CHECK: [64,  64,  64,  64]
// CHECK: [64,  64,  64,  64]
// CHECK: {{^}}@mmt.ptx:70:3: error: 'st.global.f32' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'ld.global.b32' (50:3); blocks of one launch are not ordered
// CHECK: {{^}}@mmt.ptx:50:3: note: the other access
// CHECK: {{^}}@mmt.ptx:134:3: error: 'st.global.f32' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'ld.global.b32' (114:3); blocks of one launch are not ordered
// CHECK: {{^}}@mmt.ptx:114:3: note: the other access
// CHECK: {{^}}@mmt.ptx:70:3: error: 'st.global.f32' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'ld.global.b32' (46:3); blocks of one launch are not ordered
// CHECK: {{^}}@mmt.ptx:46:3: note: the other access
// CHECK: {{^}}@mmt.ptx:134:3: error: 'st.global.f32' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'ld.global.b32' (109:3); blocks of one launch are not ordered
// CHECK: {{^}}@mmt.ptx:109:3: note: the other access
// CHECK: {{^}}@mmt.ptx:46:3: error: kernel load: bytes [4096, 4100) are out of bounds of the 4096-byte device memory allocated by 'gpu.alloc'
// CHECK: {{^}}@mmt.ptx:46:3: note: the access of thread (0, 15, 0) of block (0, 1, 0)
// CHECK: {{^}}@mmt.ptx:109:3: error: kernel load: bytes [4096, 4100) are out of bounds of the 4096-byte device memory allocated by 'gpu.alloc'
// CHECK: {{^}}@mmt.ptx:109:3: note: the access of thread (0, 15, 0) of block (0, 1, 0)
// CHECK: error: 'gpu.launch_func' @mmt::@mm ({{[0-9]+}}:5) reads bytes [0, 4096) of the device memory allocated by 'gpu.alloc' ({{[0-9]+}}:10) before anything wrote them [uninitialized]
// CHECK: error: 'gpu.launch_func' @mmt::@mm_apart ({{[0-9]+}}:5) reads bytes [0, 4096) of the device memory allocated by 'gpu.alloc' ({{[0-9]+}}:10) before anything wrote them [uninitialized]
// CHECK: gpuinterp: 8 errors

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    %h = memref.alloc (%c1024) : memref<?xf32>
    gpu.memcpy %h, %c : memref<?xf32>, memref<?xf32>
    %s = memref.subview %h[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
    %su = memref.cast %s : memref<4xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<?xf32>
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm_apart blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    %h = memref.alloc (%c1024) : memref<?xf32>
    gpu.memcpy %h, %c : memref<?xf32>, memref<?xf32>
    %s = memref.subview %h[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
    %su = memref.cast %s : memref<4xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<?xf32>
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.getelementptr %pa[5] : (!llvm.ptr) -> !llvm.ptr, f32
    gpu.launch_func @mmt::@mm blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.getelementptr %pa[5] : (!llvm.ptr) -> !llvm.ptr, f32
    gpu.launch_func @mmt::@mm_apart blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.getelementptr %pa[68] : (!llvm.ptr) -> !llvm.ptr, f32
    gpu.launch_func @mmt::@mm blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.getelementptr %pa[68] : (!llvm.ptr) -> !llvm.ptr, f32
    gpu.launch_func @mmt::@mm_apart blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1088 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 136 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1088 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 136 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %a, %one : memref<?xf32>, f32
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm_apart blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mmt [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @ptr(%m: memref<?xf32>) -> !llvm.ptr {
    %i = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    return %p : !llvm.ptr
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cb = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %kn = arith.constant 128 : i32
    %a = gpu.alloc (%c1024) : memref<?xf32>
    %b = gpu.alloc (%cb) : memref<?xf32>
    %c = gpu.alloc (%c1024) : memref<?xf32>
    gpu.memset %b, %two : memref<?xf32>, f32
    %pa = call @ptr(%a) : (memref<?xf32>) -> !llvm.ptr
    %pb = call @ptr(%b) : (memref<?xf32>) -> !llvm.ptr
    %pc = call @ptr(%c) : (memref<?xf32>) -> !llvm.ptr
    %pw = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @mmt::@mm_apart blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
        args(%pa : !llvm.ptr, %pb : !llvm.ptr, %pc : !llvm.ptr, %pw : !llvm.ptr, %kn : i32)
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}
