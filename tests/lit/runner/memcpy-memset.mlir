// A device round trip through the mgpu* ABI on the sim: gpu.alloc, gpu.memset, gpu.memcpy and
// gpu.dealloc lowered by upstream gpu-to-llvm, run by mlir-runner with libmgpusim.so, under every
// scheduler. Nothing is misused or leaked, so the sim prints nothing and the run exits 0.

// RUN: %mlir_opt --gpu-to-llvm %s > %t.ll.mlir
// RUN: %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: count 0 < %t.err
// RUN: env MGPUSIM_SCHED=serial %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: count 0 < %t.err
// RUN: env MGPUSIM_SCHED=random:1234 %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> %t.err | FileCheck %s
// RUN: count 0 < %t.err

// CHECK: [1.5,  1.5,  1.5,  1.5]
// CHECK: [1.5,  1.5,  2.5,  2.5]
// CHECK: [7,  7,  7,  7,  7,  7,  7,  7]

func.func @main() {
  %f1 = arith.constant 1.5 : f32
  %f2 = arith.constant 2.5 : f32
  %i7 = arith.constant 7 : i16
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %t2 = gpu.memset async [%t1] %d, %f1 : memref<4xf32>, f32
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t3]
  %u = memref.cast %h : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // Copy the host values back up, overwrite half on the device, and bring them down again.
  %c2 = arith.constant 2 : index
  memref.store %f2, %h[%c2] : memref<4xf32>
  %c3 = arith.constant 3 : index
  memref.store %f2, %h[%c3] : memref<4xf32>
  %t4 = gpu.wait async
  %t5 = gpu.memcpy async [%t4] %d, %h : memref<4xf32>, memref<4xf32>
  %t6 = gpu.memcpy async [%t5] %h, %d : memref<4xf32>, memref<4xf32>
  %t7 = gpu.dealloc async [%t6] %d : memref<4xf32>
  gpu.wait [%t7]
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // 16-bit memset: mgpuMemset16.
  %h16 = memref.alloc() : memref<8xi16>
  %t8 = gpu.wait async
  %d16, %t9 = gpu.alloc async [%t8] () : memref<8xi16>
  %t10 = gpu.memset async [%t9] %d16, %i7 : memref<8xi16>, i16
  %t11 = gpu.memcpy async [%t10] %h16, %d16 : memref<8xi16>, memref<8xi16>
  %t12 = gpu.dealloc async [%t11] %d16 : memref<8xi16>
  gpu.wait [%t12]
  %u16 = memref.cast %h16 : memref<8xi16> to memref<*xi16>
  call @printMemrefI16(%u16) : (memref<*xi16>) -> ()
  memref.dealloc %h : memref<4xf32>
  memref.dealloc %h16 : memref<8xi16>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
