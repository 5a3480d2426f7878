// A gpu.launch's workgroup and private attributions become the outlined kernel's, after the
// captured host values; the lowered program runs the same, and mlir-opt accepts it.
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %mlir_opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=LOW < %t.mlir
// RUN: %gpuinterp --sched=serial %s 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// RUN: %gpuinterp --sched=serial %t.mlir 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// LOW: gpu.launch_func {{.*}}@main_kernel::@main_kernel blocks in ({{.*}}) threads in ({{.*}}) args(%{{.*}} : index, %{{.*}} : index, %{{.*}} : index, %{{.*}} : memref<4xf32>)
// LOW: gpu.func @main_kernel(%{{.*}}: index {{.*}}, %{{.*}}: index {{.*}}, %{{.*}}: index {{.*}}, %{{.*}}: memref<4xf32> {{.*}}) workgroup(%[[W:.*]] : memref<4xf32, #gpu.address_space<workgroup>>) private(%[[P:.*]] : memref<1xf32, #gpu.address_space<private>>) kernel
// LOW: memref.store %{{.*}}, %[[P]][%{{.*}}] : memref<1xf32, #gpu.address_space<private>>
// LOW: memref.load %[[W]][%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: [3,  2,  1,  0]
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc host_shared () : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
               workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>)
               private(%p : memref<1xf32, #gpu.address_space<private>>) {
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      %g = memref.load %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %g, %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c4, %c1 : index
      %j = arith.subi %r, %tx : index
      %v = memref.load %w[%j] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    %u = memref.cast %d : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %d : memref<4xf32>
    return
  }
}
