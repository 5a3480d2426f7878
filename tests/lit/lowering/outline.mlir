// gpu.launch bodies are outlined into kernels first, as gpu-kernel-outlining does: a gpu.module
// @main_kernel with a gpu.func kernel taking the host values the body uses, launched in the
// stream form. The lowered program runs the same.
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %mlir_opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=LOW < %t.mlir
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// RUN: %gpuinterp --sched=random:2 %t.mlir 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// LOW: gpu.launch_func <%[[S:[0-9]+]] : !llvm.ptr> @main_kernel::@main_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<4xf32>, %{{.*}} : f32)
// LOW: gpu.module @main_kernel
// LOW-NEXT: gpu.func @main_kernel(%{{.*}}: memref<4xf32> {{.*}}, %{{.*}}: f32 {{.*}}) kernel
// LOW-NEXT: gpu.block_id x
// LOW: gpu.thread_id x
// LOW: gpu.return
// CHECK: [1,  3,  5,  7]
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %h = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<4xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<4xf32>, memref<4xf32>
    %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %x = memref.load %d[%tx] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      %z = arith.addf %y, %one : f32
      memref.store %z, %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    %t4 = gpu.memcpy async [%t3] %h, %d : memref<4xf32>, memref<4xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<4xf32>
    gpu.wait [%t5]
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
