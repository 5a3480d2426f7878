// A host read past the end of host-shared memory (gpu.alloc host_shared) names the memory as such,
// in both forms; device memory (gpu.alloc) is a device allocation.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: not %gpuinterp %t.mlir 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: sed 's/host_shared //' %s > %t.dev.mlir
// RUN: %gpuinterp --lower %t.dev.mlir -o %t.dev.low.mlir
// RUN: not %gpuinterp %t.dev.low.mlir 2>&1 | FileCheck %s --check-prefix=DEV
// CHECK: host-shared-bounds.mlir:21:5: error: 'func.call' op out-of-bounds read: bytes [0, 32) of a 16-byte host-shared allocation allocated by 'gpu.alloc' (18:10)
// CHECK: gpuinterp: 1 error
// LOW: host-shared-bounds.mlir:21:5: error: 'func.call' op out-of-bounds read: bytes [0, 32) of a 16-byte host-shared allocation allocated by 'llvm.call' @mgpuMemAlloc (18:10)
// DEV: error: 'func.call' op out-of-bounds read: bytes [0, 32) of a 16-byte device allocation allocated by 'llvm.call' @mgpuMemAlloc
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %d = gpu.alloc host_shared () : memref<4xf32>
    %u = memref.reinterpret_cast %d to offset: [0], sizes: [8], strides: [1] : memref<4xf32> to memref<8xf32>
    %c = memref.cast %u : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%c) : (memref<*xf32>) -> ()
    gpu.dealloc %d : memref<4xf32>
    return
  }
}
