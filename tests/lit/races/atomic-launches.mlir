// Atomics and race detection between device ops. Atomics of launches that nothing orders do not
// race (as on a GPU): @atomics ends with the sum of both launches and reports nothing, in the
// high-level form, lowered to mgpu* calls (--lower), with kernels lowered to llvm + nvvm
// (llvm.atomicrmw), and with their atomics turned into llvm.cmpxchg. An atomic against a plain
// store of another launch (@store), or against a copy that reads the buffer (@copy), is a race.
// RUN: %gpuinterp -e atomics %s | FileCheck %s --check-prefix=OK
// RUN: %gpuinterp --sched=serial -e atomics %s | FileCheck %s --check-prefix=OK
// RUN: not %gpuinterp -e store %s 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not %gpuinterp --sched=serial -e copy %s 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: %gpuinterp --lower %s -o %t.low.mlir
// RUN: %gpuinterp -e atomics %t.low.mlir | FileCheck %s --check-prefix=OK
// RUN: not %gpuinterp -e store %t.low.mlir 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not %gpuinterp -e copy %t.low.mlir 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=NVVM < %t.nvvm.mlir
// RUN: %gpuinterp -e atomics %t.nvvm.mlir | FileCheck %s --check-prefix=OK
// RUN: not %gpuinterp -e store %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=STORE-LLVM
// RUN: sed -e 's/llvm.atomicrmw add \(%[0-9]*\), \(%[0-9]*\) [a-z_]* : !llvm.ptr, i32/llvm.cmpxchg \1, \2, \2 acq_rel monotonic : !llvm.ptr, i32/' %t.nvvm.mlir > %t.cx.mlir
// RUN: FileCheck %s --check-prefix=CX < %t.cx.mlir
// RUN: %gpuinterp -e atomics %t.cx.mlir | FileCheck %s --check-prefix=OK-CX
// RUN: not %gpuinterp -e store %t.cx.mlir 2>&1 | FileCheck %s --check-prefix=STORE-LLVM
// NVVM: llvm.atomicrmw add
// CX: llvm.cmpxchg
// CX-NOT: llvm.atomicrmw
// OK: [128,  0]
// OK-CX: [0,  0]
// OK-NOT: race
// STORE: error: data race (write-write): 'gpu.launch_func' @k::@{{set|count}} ({{[0-9]+}}:10) {{atomically updates|writes}} and 'gpu.launch_func' @k::@{{set|count}} ({{[0-9]+}}:10) {{writes|atomically updates}} bytes [0, 4) of the device memory allocated by {{'gpu.alloc'|'llvm.call' @mgpuMemAlloc}} ({{[0-9]+}}:10); nothing orders the two [race]
// STORE-NOT: error: data race
// STORE-LLVM: error: data race (write-write): {{.*}} {{atomically updates|writes}} and {{.*}} {{writes|atomically updates}} bytes [0, 4) of the device memory
// COPY: error: data race (read-write): {{'gpu.memcpy'|'llvm.call' @mgpuMemcpy|'gpu.launch_func' @k::@count}} ({{[0-9]+}}:10) {{atomically updates|reads}} and {{'gpu.memcpy'|'llvm.call' @mgpuMemcpy|'gpu.launch_func' @k::@count}} ({{[0-9]+}}:10) {{reads|atomically updates}} bytes [0, 4) of the device memory
// COPY-NOT: error: data race
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @count(%m: memref<2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %m[%c0] : (i32, memref<2xi32>) -> i32
      gpu.return
    }
    gpu.func @set(%m: memref<2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 7 : i32
      memref.store %v, %m[%c0] : memref<2xi32>
      gpu.return
    }
  }
  func.func @atomics() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<2xi32>
    gpu.memset %m, %z : memref<2xi32>, i32
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<2xi32>)
    %b = gpu.launch_func async [%t0] @k::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<2xi32>)
    gpu.wait [%a, %b]
    %h = memref.alloc() : memref<2xi32>
    gpu.memcpy %h, %m : memref<2xi32>, memref<2xi32>
    %u = memref.cast %h : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<2xi32>
    gpu.dealloc %m : memref<2xi32>
    return
  }
  func.func @store() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<2xi32>
    gpu.memset %m, %z : memref<2xi32>, i32
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<2xi32>)
    %b = gpu.launch_func async [%t0] @k::@set blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<2xi32>)
    gpu.wait [%a, %b]
    gpu.dealloc %m : memref<2xi32>
    return
  }
  func.func @copy() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<2xi32>
    %h = memref.alloc() : memref<2xi32>
    gpu.memset %m, %z : memref<2xi32>, i32
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<2xi32>)
    %b = gpu.memcpy async [%t0] %h, %m : memref<2xi32>, memref<2xi32>
    gpu.wait [%a, %b]
    memref.dealloc %h : memref<2xi32>
    gpu.dealloc %m : memref<2xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
