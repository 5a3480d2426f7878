// Indirect calls of hand-written PTX (Inputs/exec/icall.ptx): a call through a pointer loaded from
// a table of function addresses (a .global initializer) under a guard that 5 of 8 threads pass
// (the others keep the return variable as it was), then a call of the table's second function,
// whose two parameters are not the prototype's one (a second launch): an error at the call.

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/icall.ptx %s > %t.mlir
// RUN: not %gpuinterp %t.mlir 2>&1 | FileCheck %s

// CHECK: [20,  22,  24,  26,  28,  -1,  -1,  -1]
// CHECK: {{^}}@icall.ptx:62:2: error: 'call' op an indirect call of 0xfff{{[0-9a-f]+}}, which is not the address of a device function of the module with prototype 'prototype_0' (thread (0, 0, 0) of block (0, 0, 0))
// CHECK-NEXT: call (rv), %rd2, (q), prototype_0;
// CHECK: gpuinterp: 1 error

module attributes {gpu.container_module} {
  gpu.binary @icall [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @run(%bad: i32) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<8xi32>
    %i = memref.extract_aligned_pointer_as_index %out : memref<8xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @icall::@icall blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %bad : i32)
    %host = memref.alloc () : memref<8xi32>
    gpu.memcpy %host, %out : memref<8xi32>, memref<8xi32>
    %u = memref.cast %host : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    call @run(%c0) : (i32) -> ()
    call @run(%c1) : (i32) -> ()
    return
  }
}
