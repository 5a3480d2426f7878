// Reads of one range between writes: a write is compared with the frontier of its bytes, the
// last write and the reads since it that the lowering orders before no later read; a read
// ordered before a later one leaves it (what follows the later read follows it too), so the
// write meets one read of a chain of them, not all. The lowering agrees; with the wait before
// the writes left out, each write loses its ordering with the memset and with the last of the
// reads in the lowered program's order, and the reads before it, ordered by the same streams,
// are not named again. With the wait between the first two reads left out, the first read
// stays in the frontier beside the others and is named too. The verdicts agree with the
// all-pairs reference (GPUINTERP_DIFF_ORACLE, tools/diff.c).
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// RUN: env GPUINTERP_DIFF_ORACLE=stats %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:1 %s 2>&1 | FileCheck %s --check-prefix=WRITES
// RUN: env GPUINTERP_DIFF_ORACLE=stats %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --lower-mutate=drop-wait:0 %s 2>&1 | FileCheck %s --check-prefix=READS

// WRITES-NOT: lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+31]]:11 and
// WRITES-NOT: lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+32]]:11 and
// WRITES: reads.mlir:[[#@LINE+34]]:11: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}reads.mlir:[[#@LINE+28]]:10 and 'gpu.launch_func' here: the program orders them (both touch bytes [0, 4) of one buffer), the lowered program does not
// WRITES: reads.mlir:[[#@LINE+33]]:11: error: the lowering lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+31]]:11 and 'gpu.launch_func' here: the program orders them (both touch bytes [0, 4) of one buffer), the lowered program does not
// WRITES: reads.mlir:[[#@LINE+33]]:11: error: the lowering lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+30]]:11 and 'gpu.launch_func' here: the program orders them (both touch bytes [4, 8) of one buffer), the lowered program does not
// WRITES-NOT: lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+26]]:11 and
// WRITES-NOT: lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+27]]:11 and
// WRITES: diff oracle: 8 lost orderings, 4 found by the ordering check, the verdicts agree
// READS: reads.mlir:[[#@LINE+25]]:11: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}reads.mlir:[[#@LINE+22]]:10 and 'gpu.memcpy' here
// READS: reads.mlir:[[#@LINE+27]]:11: error: the lowering lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+22]]:11 and 'gpu.launch_func' here
// READS: reads.mlir:[[#@LINE+27]]:11: error: the lowering lost the ordering of 'gpu.memcpy' at {{.*}}reads.mlir:[[#@LINE+21]]:11 and 'gpu.launch_func' here
// READS: diff oracle: 6 lost orderings, 6 found by the ordering check, the verdicts agree

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @one(%m: memref<8xf32>, %i: index) kernel {
      %v = arith.constant 2.0 : f32
      memref.store %v, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f1 = arith.constant 1.0 : f32
    %h1 = memref.alloc() : memref<8xf32>
    %h2 = memref.alloc() : memref<8xf32>
    %h3 = memref.alloc() : memref<8xf32>
    %a = gpu.wait async
    %d, %t1 = gpu.alloc async [%a] () : memref<8xf32>
    %s = gpu.memset async [%t1] %d, %f1 : memref<8xf32>, f32
    %r1 = gpu.memcpy async [%s] %h1, %d : memref<8xf32>, memref<8xf32>
    %b = gpu.wait async [%r1]
    %r2 = gpu.memcpy async [%b] %h2, %d : memref<8xf32>, memref<8xf32>
    %r3 = gpu.memcpy async [%r2] %h3, %d : memref<8xf32>, memref<8xf32>
    %e = gpu.wait async [%r3]
    %w1 = gpu.launch_func async [%e] @k::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<8xf32>, %c0 : index)
    %w2 = gpu.launch_func async [%w1] @k::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<8xf32>, %c1 : index)
    %x = gpu.dealloc async [%w2] %d : memref<8xf32>
    gpu.wait [%x]
    memref.dealloc %h1 : memref<8xf32>
    memref.dealloc %h2 : memref<8xf32>
    memref.dealloc %h3 : memref<8xf32>
    return
  }
}
