// scf.parallel split into async tasks by async-parallel-for (a group of block tasks, dispatched
// one by one or by a recursive async dispatch function, both coroutines once lowered), then
// lowered to coroutines and mlirAsyncRuntime* calls: each element written once; mlir-runner with
// MLIR's async runtime is the oracle.
// RUN: %mlir_opt %s -async-parallel-for="async-dispatch=true num-workers=4 min-task-size=3" -async-to-async-runtime -async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm -convert-scf-to-cf -arith-expand -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.dispatch.mlir
// RUN: %gpuinterp %t.dispatch.mlir | FileCheck %s
// RUN: %mlir_runner %t.dispatch.mlir -O0 -e main --entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_async_runtime.so.22.1,%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | FileCheck %s
// RUN: %mlir_opt %s -async-parallel-for="async-dispatch=false num-workers=3 min-task-size=1" -async-to-async-runtime -async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm -convert-scf-to-cf -arith-expand -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.loop.mlir
// RUN: %gpuinterp %t.loop.mlir | FileCheck %s

// CHECK: [0,  1,  4,  9,  16,  25,  36,  49,  64,  81,  100,  121,  144,  169,  196,  225,  256,  289,  324,  361,  400,  441,  484,  529,  576,  625,  676,  729,  784,  841,  900,  961,  1024,  1089,  1156,  1225,  1296]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  %buf = memref.alloc() : memref<37xi32>
  scf.parallel (%i) = (%c0) to (%c37) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %v = arith.muli %ii, %ii : i32
    memref.store %v, %buf[%i] : memref<37xi32>
    scf.reduce
  }
  %u = memref.cast %buf : memref<37xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %buf : memref<37xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
