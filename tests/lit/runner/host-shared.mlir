// host_shared memory (mgpuMemAlloc with isHostShared = 1, on no stream) is filled by an async
// memset on a stream, then read by the host directly after the wait: no copy, no error.

// RUN: %mlir_opt --gpu-to-llvm %s | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

// RUN: %mlir_opt --gpu-to-llvm %s | FileCheck --check-prefix=LOWERED %s
// LOWERED: %[[ONE:.*]] = llvm.mlir.constant(1 : i8) : i8
// LOWERED: llvm.call @mgpuMemAlloc({{.*}}, %[[ONE]])

// CHECK: [42,  42,  42,  42,  42,  42]

// The memory is never freed (gpu.dealloc of host_shared memory has no synchronous lowering).
// WARN-NOT: error
// WARN: mgpusim: mgpuMemAlloc#1: warning: host-shared memory (24 bytes) allocated here was never freed [leak]
// WARN: mgpusim: 1 warning

func.func @main() {
  %c42 = arith.constant 42 : i32
  %s = gpu.alloc host_shared () : memref<6xi32>
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %s, %c42 : memref<6xi32>, i32
  gpu.wait [%t1]
  %u = memref.cast %s : memref<6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
