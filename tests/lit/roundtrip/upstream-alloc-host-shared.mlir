// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/alloc-host-shared.mlir:
// a host_shared allocation written by the host, doubled by a kernel and
// read back by the host without any copy; printed with the double space
// mlir-opt itself puts after `gpu.alloc`.

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c21_i32 = arith.constant 21 : i32
    %memref = gpu.alloc  host_shared () : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %c21_i32, %memref[%i] : memref<4xi32>
    }
    gpu.launch blocks(%arg0, %arg1, %arg2) in (%arg6 = %c1, %arg7 = %c1, %arg8 = %c1) threads(%arg3, %arg4, %arg5) in (%arg9 = %c4, %arg10 = %c1, %arg11 = %c1) {
      %1 = memref.load %memref[%arg3] : memref<4xi32>
      %2 = arith.addi %1, %1 : i32
      memref.store %2, %memref[%arg3] : memref<4xi32>
      gpu.terminator
    }
    %0 = memref.load %memref[%c1] : memref<4xi32>
    vector.print %0 : i32
    %shared_dyn, %t = gpu.alloc async host_shared (%c4) : memref<?xf32>
    gpu.wait [%t]
    gpu.dealloc %memref : memref<4xi32>
    return
  }
}
