// Kernels that read and write a buffer in many separate ranges (a thread per row, rows apart):
// every access of a row is compared with the last write of its own bytes, found by offset, not
// by a walk over the other rows' ranges, and no one write covers a read of two rows' elements.
// The lowering agrees; with a wait left out, each lost ordering is named, the ordering check
// agreeing with the all-pairs reference (GPUINTERP_DIFF_ORACLE, tools/diff.c).
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// RUN: env GPUINTERP_DIFF_ORACLE=stats %gpuinterp --diff %s 2>&1 | FileCheck %s --check-prefix=AGREE
// RUN: env GPUINTERP_DIFF_ORACLE=stats %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:0 %s 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:2 %s 2>&1 | FileCheck %s --check-prefix=LAST

// AGREE: diff oracle: 0 lost orderings, 0 found by the ordering check, the verdicts agree
// FIRST: strided.mlir:[[#@LINE+47]]:11: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}strided.mlir:[[#@LINE+45]]:11 and 'gpu.launch_func' here: the program orders them (both touch bytes [0, 4) of one buffer), the lowered program does not
// FIRST: note: in the lowered program 'gpu.launch_func' runs on stream {{[0-9]+}} and 'gpu.launch_func' on stream {{[0-9]+}}, with no mgpuStreamWaitEvent between them
// FIRST: strided.mlir:[[#@LINE+47]]:11: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}strided.mlir:[[#@LINE+43]]:11 and 'gpu.launch_func' here: the program orders them (both touch bytes [0, 4) of one buffer), the lowered program does not
// FIRST: diff oracle: {{[1-9][0-9]*}} lost orderings, {{[1-9][0-9]*}} found by the ordering check, the verdicts agree
// LAST: strided.mlir:[[#@LINE+47]]:10: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}strided.mlir:[[#@LINE+45]]:11 and 'gpu.memcpy' here: the program orders them (both touch bytes [0, 4) of one buffer), the lowered program does not
// LAST: strided.mlir:[[#@LINE+46]]:10: error: the lowering lost the ordering of 'gpu.launch_func' at {{.*}}strided.mlir:[[#@LINE+42]]:11 and 'gpu.memcpy' here: the program orders them (both touch bytes [4, 8) of one buffer), the lowered program does not

module attributes {gpu.container_module} {
  gpu.module @k {
    // each thread reads elements 4t and 4t + 1 (one range of 8 bytes per row, rows apart) and
    // writes their sum to 4t (@even) or 4t + 1 (@odd)
    gpu.func @even(%m: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %j = arith.addi %i, %c1 : index
      %x = memref.load %m[%i] : memref<32xf32>
      %y = memref.load %m[%j] : memref<32xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %m[%i] : memref<32xf32>
      gpu.return
    }
    gpu.func @odd(%m: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %j = arith.addi %i, %c1 : index
      %x = memref.load %m[%i] : memref<32xf32>
      %y = memref.load %m[%j] : memref<32xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %m[%j] : memref<32xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f1 = arith.constant 1.0 : f32
    %h = memref.alloc() : memref<32xf32>
    %a = gpu.wait async
    %d, %t1 = gpu.alloc async [%a] () : memref<32xf32>
    %s = gpu.memset async [%t1] %d, %f1 : memref<32xf32>, f32
    %k1 = gpu.launch_func async [%s] @k::@even blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<32xf32>)
    %b = gpu.wait async [%k1]
    %k2 = gpu.launch_func async [%b] @k::@odd blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<32xf32>)
    %e = gpu.wait async [%k2]
    %k3 = gpu.launch_func async [%e] @k::@even blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<32xf32>)
    %f = gpu.wait async [%k3]
    %c = gpu.memcpy async [%f] %h, %d : memref<32xf32>, memref<32xf32>
    gpu.wait [%c]
    %u = memref.cast %h : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %d : memref<32xf32>
    memref.dealloc %h : memref<32xf32>
    return
  }
}
