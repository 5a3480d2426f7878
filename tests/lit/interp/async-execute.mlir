// async.execute / await / yield on the host, in the shapes upstream's async integration tests use
// them: tokens, !async.value results of scalars and memrefs, dependencies, value operands, groups.
// Bodies run where they are reached, which is one of the orders the program allows; the output is
// the same as upstream's async runtime (the program orders every print through awaits).
// RUN: %gpuinterp %s > %t.ours
// (mlir-runner -O0: its default -O2 fails to select the coroutine code on x86)
// RUN: %mlir_opt %s --async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt --convert-async-to-llvm --convert-scf-to-cf --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -O0 -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mlir_lib_dir/libmlir_async_runtime.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index

  // a memref made in one execute, filled in a dependent one, read after the await
  %t0, %f0 = async.execute () -> !async.value<memref<4xi32>> {
    %m = memref.alloc() : memref<4xi32>
    async.yield %m : memref<4xi32>
  }
  %t1 = async.execute [%t0] (%f0 as %m : !async.value<memref<4xi32>>) {
    scf.for %i = %c0 to %c4 step %c1 {
      %v = arith.index_cast %i : index to i32
      %w = arith.muli %v, %v : i32
      memref.store %w, %m[%i] : memref<4xi32>
    }
    async.yield
  }
  async.await %t1 : !async.token
  %m = async.await %f0 : !async.value<memref<4xi32>>
  // CHECK: [0,  1,  4,  9]
  %u = memref.cast %m : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()

  // scalar values through a chain of executes
  %t2, %v2 = async.execute -> !async.value<f32> {
    %x = arith.constant 1.5 : f32
    async.yield %x : f32
  }
  %t3, %v3 = async.execute [%t2] (%v2 as %x : !async.value<f32>) -> !async.value<f32> {
    %y = arith.mulf %x, %x : f32
    async.yield %y : f32
  }
  %r = async.await %v3 : !async.value<f32>
  // CHECK-NEXT: 2.25
  call @printF32(%r) : (f32) -> ()
  call @printNewline() : () -> ()

  // a group of executes, each writing its own cell, awaited together
  %g = async.create_group %c4 : !async.group
  %cells = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %v = arith.index_cast %i : index to i32
      %w = arith.addi %v, %v : i32
      memref.store %w, %cells[%i] : memref<4xi32>
      async.yield
    }
    %k = async.add_to_group %t, %g : !async.token
  }
  async.await_all %g
  // CHECK-NEXT: Unranked
  // CHECK-NEXT: [0,  2,  4,  6]
  %uc = memref.cast %cells : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
  memref.dealloc %m : memref<4xi32>
  memref.dealloc %cells : memref<4xi32>
  return
}
