// Math in both kernel forms: convert-gpu-to-nvvm turns math ops into calls of libdevice
// functions (__nv_expf, __nv_powf, __nv_tanh, ...), which the interpreter computes like the host's
// math ops. Both forms print the same values.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// LOWERED: llvm.call @__nv_expf
// LOWERED: llvm.call @__nv_tanh
// CHECK: [2,  3.71828,  10.0542,  26.7905,  70.5981,  184.968,  483.98,  1268.79]
// CHECK: [0,  1.45474,  2.06264,  2.38135,  2.60877,  2.79167,  2.9459,  3.07944]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @m(%o: memref<8xf32>, %d: memref<8xf64>) kernel {
      %tx = gpu.thread_id x
      %t = arith.index_cast %tx : index to i32
      %f = arith.sitofp %t : i32 to f32
      %g = arith.sitofp %t : i32 to f64
      %a = math.exp %f : f32
      %b = math.sqrt %f : f32
      %c = math.powf %f, %b : f32
      %e = math.tanh %g : f64
      %h = math.log1p %g : f64
      %s = arith.addf %a, %c : f32
      %r = arith.addf %e, %h : f64
      memref.store %s, %o[%tx] : memref<8xf32>
      memref.store %r, %d[%tx] : memref<8xf64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %o = gpu.alloc host_shared () : memref<8xf32>
    %d = gpu.alloc host_shared () : memref<8xf64>
    gpu.launch_func @k::@m blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%o : memref<8xf32>, %d : memref<8xf64>)
    %u = memref.cast %o : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %v = memref.cast %d : memref<8xf64> to memref<*xf64>
    call @printMemrefF64(%v) : (memref<*xf64>) -> ()
    gpu.dealloc %o : memref<8xf32>
    gpu.dealloc %d : memref<8xf64>
    return
  }
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
  func.func private @printMemrefF64(%ptr : memref<*xf64>)
}
