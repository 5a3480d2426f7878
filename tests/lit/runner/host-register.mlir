// gpu.host_register lowers to mgpuMemHostRegisterMemRef(rank, descriptor, element size): the sim
// registers the dense span of the memref, copies into it are checked against that span, and the
// unregister pair removes it.

// RUN: %mlir_opt --gpu-to-llvm %s | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2> %t.err | FileCheck %s
// RUN: count 0 < %t.err

// RUN: %mlir_opt --gpu-to-llvm %s | FileCheck --check-prefix=LOWERED %s
// LOWERED: llvm.call @mgpuMemHostRegisterMemRef
// LOWERED: llvm.call @mgpuMemHostUnregisterMemRef

// CHECK:      [3,   3,   3]
// CHECK-NEXT: [3,   3,   3]

func.func @main() {
  %c3 = arith.constant 3 : i32
  %h = memref.alloc() : memref<2x3xi32>
  %u = memref.cast %h : memref<2x3xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<2x3xi32>
  %t2 = gpu.memset async [%t1] %d, %c3 : memref<2x3xi32>, i32
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<2x3xi32>, memref<2x3xi32>
  %t4 = gpu.dealloc async [%t3] %d : memref<2x3xi32>
  gpu.wait [%t4]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.host_unregister %u : memref<*xi32>
  memref.dealloc %h : memref<2x3xi32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
