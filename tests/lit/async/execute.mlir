// async.execute with tokens, values and groups, run as it is (the bodies run where they stand)
// and as convert-async-to-llvm leaves it: coroutines that the mlirAsyncRuntime* functions
// resume, on gpuinterp's one-worker queue and, as the oracle, on mlir-runner with MLIR's own
// async runtime. The bodies only write memory; main prints after its awaits, so the output does
// not depend on the order the runtime picks.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s -async-to-async-runtime -async-runtime-ref-counting -convert-async-to-llvm -convert-scf-to-cf -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir | FileCheck %s
// RUN: %mlir_runner %t.ll.mlir -O0 -e main --entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_async_runtime.so.22.1,%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 | FileCheck %s

// CHECK: 1.5
// CHECK-NEXT: 4.5
// CHECK: [0,  1,  4,  9,  16,  25]
// CHECK: [8]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index

  // a value, and a body that depends on its token and reads it
  %t0, %v0 = async.execute -> !async.value<f32> {
    %x = arith.constant 1.5 : f32
    async.yield %x : f32
  }
  %t1, %v1 = async.execute [%t0] (%v0 as %x : !async.value<f32>) -> !async.value<f32> {
    %three = arith.constant 3.0 : f32
    %y = arith.mulf %x, %three : f32
    async.yield %y : f32
  }

  // a group of bodies, each writing one element
  %buf = memref.alloc() : memref<6xi32>
  %g = async.create_group %c6 : !async.group
  scf.for %i = %c0 to %c6 step %c1 {
    %t = async.execute {
      %ii = arith.index_cast %i : index to i32
      %sq = arith.muli %ii, %ii : i32
      memref.store %sq, %buf[%i] : memref<6xi32>
      async.yield
    }
    %rank = async.add_to_group %t, %g : !async.token
  }

  // a body that awaits inside (a suspend) the other body's value, and a nested async.execute
  %t2, %v2 = async.execute -> !async.value<i32> {
    %y = async.await %v1 : !async.value<f32>
    %t3, %v3 = async.execute -> !async.value<i32> {
      %two = arith.constant 2 : i32
      async.yield %two : i32
    }
    %z = async.await %v3 : !async.value<i32>
    %yi = arith.fptosi %y : f32 to i32
    %s = arith.addi %yi, %z : i32
    %s1 = arith.addi %s, %z : i32
    %one = arith.constant 0 : i32
    %s2 = arith.addi %s1, %one : i32
    async.yield %s2 : i32
  }

  %a = async.await %v0 : !async.value<f32>
  func.call @printF32(%a) : (f32) -> ()
  func.call @printNewline() : () -> ()
  %b = async.await %v1 : !async.value<f32>
  func.call @printF32(%b) : (f32) -> ()
  func.call @printNewline() : () -> ()
  async.await_all %g
  %u = memref.cast %buf : memref<6xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %r = async.await %v2 : !async.value<i32>
  %out = memref.alloc() : memref<1xi32>
  memref.store %r, %out[%c0] : memref<1xi32>
  %uo = memref.cast %out : memref<1xi32> to memref<*xi32>
  func.call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  memref.dealloc %buf : memref<6xi32>
  memref.dealloc %out : memref<1xi32>
  return
}

func.func private @printF32(f32)
func.func private @printNewline()
func.func private @printMemrefI32(memref<*xi32>)
