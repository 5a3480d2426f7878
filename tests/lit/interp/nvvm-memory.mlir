// Private and dynamic shared memory in both kernel forms: a private attribution (an llvm.alloca
// per thread once lowered) and gpu.dynamic_shared_memory (the external zero-sized addr_space 3
// global of the lowered form), read back reversed after a barrier.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// LOWERED: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// LOWERED: llvm.alloca
// CHECK: [49,  36,  25,  16,  9,  4,  1,  0]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @p(%out: memref<8xi32>) private(%pr: memref<2xi32, #gpu.address_space<private>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xi32, #gpu.address_space<workgroup>>
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %pr[%c0] : memref<2xi32, #gpu.address_space<private>>
      %x = memref.load %pr[%c0] : memref<2xi32, #gpu.address_space<private>>
      %y = arith.muli %x, %x : i32
      memref.store %y, %v[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c7 = arith.constant 7 : index
      %r = arith.subi %c7, %tx : index
      %z = memref.load %v[%r] : memref<8xi32, #gpu.address_space<workgroup>>
      memref.store %z, %out[%tx] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %sm = arith.constant 32 : i32
    %o = gpu.alloc host_shared () : memref<8xi32>
    gpu.launch_func @k::@p blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) dynamic_shared_memory_size %sm args(%o : memref<8xi32>)
    %u = memref.cast %o : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %o : memref<8xi32>
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
