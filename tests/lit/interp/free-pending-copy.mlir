// Host memory freed while a copy into it may still run: the race is reported, and the copy never
// writes into memory the host gave back (ASan would see that), under every scheduler and in the
// lowered form too.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:1 %s 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=threads %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:1 %t.mlir 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=threads %t.mlir 2>&1 | FileCheck %s
// CHECK: free-pending-copy.mlir:[[@LINE+11]]:5{{.*}}error: use after free: {{.*}} while {{'gpu.memcpy'|'llvm.call' @mgpuMemcpy}} ([[@LINE+10]]:11) may still write bytes [0, 4096) of it; nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %v = arith.constant 5 : i32
    %h = memref.alloc() : memref<1024xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<1024xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<1024xi32>, i32
    %t3 = gpu.wait async [%t2]
    %t4 = gpu.memcpy async [%t3] %h, %d : memref<1024xi32>, memref<1024xi32>
    memref.dealloc %h : memref<1024xi32>
    gpu.wait [%t4]
    return
  }
}
