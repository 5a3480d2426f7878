// gpu.alloc host_shared: the host writes the memory, a gpu.launch doubles it, the host reads it
// after the (synchronous) launch (upstream's alloc-host-shared.mlir, which indexes element 1 of a
// one-element memref; here element 0).
// RUN: %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: 2000
// CHECK-NOT: error
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c1000_i32 = arith.constant 1000 : i32
    %memref = gpu.alloc  host_shared () : memref<1xi32>
    memref.store %c1000_i32, %memref[%c0] : memref<1xi32>
    gpu.launch blocks(%arg0, %arg1, %arg2) in (%arg6 = %c1, %arg7 = %c1, %arg8 = %c1) threads(%arg3, %arg4, %arg5) in (%arg9 = %c1, %arg10 = %c1, %arg11 = %c1) {
      %1 = memref.load %memref[%c0] : memref<1xi32>
      %2 = arith.addi %1, %1 : i32
      memref.store %2, %memref[%c0] : memref<1xi32>
      gpu.terminator
    }
    %0 = memref.load %memref[%c0] : memref<1xi32>
    %1 = arith.extsi %0 : i32 to i64
    func.call @printI64(%1) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %memref : memref<1xi32>
    return
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
}
