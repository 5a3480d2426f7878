// --diff compares the ordering of kernels' accesses as it does copies': the bytes a kernel
// touched come with its end in the trace (merged per allocation and kind), so a lowering that
// drops the wait before a kernel is named as losing the ordering of that kernel and the one it
// conflicts with. Two atomic updates of the same bytes do not conflict, so losing the order
// between the two @bump launches is not reported as such; but the copy the program orders
// after both now follows only the second, and the first, and @fill before it, lose their
// ordering with the copy (the second's atomic update covers the copy's bytes, yet orders
// nothing before it: an earlier atomic update is no plain write's).
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:0 %s 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:1 %s 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:2 %s 2>&1 | FileCheck %s --check-prefix=COPY

// FIRST: kernel-ordering.mlir:[[#@LINE+38]]:11: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+36]]:11 and 'gpu.launch_func' here: the program orders them (both touch bytes [0, 16) of one buffer), the lowered program does not
// FIRST: note: in the lowered program 'gpu.launch_func' runs on stream {{[0-9]+}} and 'gpu.launch_func' on stream {{[0-9]+}}, with no mgpuStreamWaitEvent between them
// FIRST: kernel-ordering.mlir:[[#@LINE+38]]:11: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+34]]:11 and 'gpu.launch_func' here

// ATOMIC-NOT: lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+34]]:11
// ATOMIC: kernel-ordering.mlir:[[#@LINE+35]]:11: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+31]]:11 and 'gpu.launch_func' here
// ATOMIC-NOT: lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+32]]:11 and 'gpu.launch_func' here
// ATOMIC: kernel-ordering.mlir:[[#@LINE+35]]:10: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+29]]:11 and 'gpu.memcpy' here
// ATOMIC: kernel-ordering.mlir:[[#@LINE+34]]:10: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+30]]:11 and 'gpu.memcpy' here
// ATOMIC-NOT: lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+29]]:11 and 'gpu.launch_func' here

// COPY: kernel-ordering.mlir:[[#@LINE+31]]:10: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}kernel-ordering.mlir:[[#@LINE+29]]:11 and 'gpu.memcpy' here
// COPY: note: in the lowered program 'gpu.launch_func' runs on stream {{[0-9]+}} and mgpuMemcpy on stream {{[0-9]+}}, with no mgpuStreamWaitEvent between them

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%a: memref<4xi32>, %v: i32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %a[%i] : memref<4xi32>
      gpu.return
    }
    gpu.func @bump(%a: memref<4xi32>, %v: i32) kernel {
      %i = gpu.thread_id x
      %o = memref.atomic_rmw addi %v, %a[%i] : (i32, memref<4xi32>) -> i32
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : i32
    %c2 = arith.constant 2 : i32
    %h = memref.alloc() : memref<4xi32>
    %a = gpu.wait async
    %d, %t1 = gpu.alloc async [%a] () : memref<4xi32>
    %k1 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %c7 : i32)
    %b = gpu.wait async [%k1]
    %k2 = gpu.launch_func async [%b] @k::@bump blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %c2 : i32)
    %e = gpu.wait async [%k2]
    %k3 = gpu.launch_func async [%e] @k::@bump blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %c2 : i32)
    %f = gpu.wait async [%k3]
    %c = gpu.memcpy async [%f] %h, %d : memref<4xi32>, memref<4xi32>
    gpu.wait [%c]
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}
