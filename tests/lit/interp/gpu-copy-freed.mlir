// A gpu.memcpy or gpu.memset of host memory the program already freed is a located error before
// anything is submitted (under serial the copy would run at once, from or into freed memory).
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial -e from_freed %s 2>&1 | FileCheck --check-prefix=FROM %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e into_freed %s 2>&1 | FileCheck --check-prefix=INTO %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial -e set_freed %s 2>&1 | FileCheck --check-prefix=SET %s
module attributes {gpu.container_module} {
  func.func @from_freed() {
    %h = memref.alloc() : memref<16xf32>
    %d = gpu.alloc () : memref<16xf32>
    memref.dealloc %h : memref<16xf32>
    // FROM: gpu-copy-freed.mlir:[[@LINE+1]]:5: error: 'gpu.memcpy' op read of 64 bytes at 0x{{[0-9a-f]+}}, which is no memory the program allocated
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    gpu.dealloc %d : memref<16xf32>
    return
  }
  func.func @into_freed() {
    %h = memref.alloc() : memref<16xf32>
    %d = gpu.alloc () : memref<16xf32>
    memref.dealloc %h : memref<16xf32>
    // INTO: gpu-copy-freed.mlir:[[@LINE+1]]:10: error: 'gpu.memcpy' op write of 64 bytes at 0x{{[0-9a-f]+}}, which is no memory the program allocated
    %t = gpu.memcpy async %h, %d : memref<16xf32>, memref<16xf32>
    gpu.wait [%t]
    gpu.dealloc %d : memref<16xf32>
    return
  }
  func.func @set_freed() {
    %h = memref.alloc() : memref<16xi32>
    %v = arith.constant 7 : i32
    memref.dealloc %h : memref<16xi32>
    // SET: gpu-copy-freed.mlir:[[@LINE+1]]:5: error: 'gpu.memset' op write of 64 bytes at 0x{{[0-9a-f]+}}, which is no memory the program allocated
    gpu.memset %h, %v : memref<16xi32>, i32
    return
  }
}
