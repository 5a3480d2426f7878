// A failed cf.assert inside async.execute: the high-level form stops at the assert; the lowered
// form (async-to-async-runtime turns the assert into a branch that sets the body's token to the
// error state) carries the error to the body that depends on the token, which sets its own
// token's error without running, and then to main's await, whose lowered assert prints its
// message and calls abort().
// RUN: not %gpuinterp %s 2>&1 | FileCheck --check-prefix=HIGH %s
// RUN: %mlir_opt %s -async-to-async-runtime -async-runtime-ref-counting -convert-async-to-llvm -convert-func-to-llvm -convert-arith-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.ll.mlir
// RUN: not %gpuinterp %t.ll.mlir 2>&1 | FileCheck --check-prefix=LOW %s

// HIGH-NOT: 114
// HIGH: error.mlir:{{[0-9]+}}:5: error: 'cf.assert' op assertion failed: the body failed
// HIGH-NOT: 114

// LOW-NOT: 114
// LOW: Awaited async operand is in error state
// LOW: error: 'llvm.call' op the program called abort()
// LOW-NOT: 114

func.func @main() {
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<1xi32>
  %t0 = async.execute {
    %false = arith.constant false
    cf.assert %false, "the body failed"
    async.yield
  }
  %t1 = async.execute [%t0] {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    memref.store %one, %buf[%c0] : memref<1xi32>
    func.call @ran() : () -> ()
    async.yield
  }
  async.await %t1 : !async.token
  func.call @ran() : () -> ()
  return
}

// prints 114, which no run may print
func.func @ran() {
  %c114 = arith.constant 114 : i64
  func.call @printI64(%c114) : (i64) -> ()
  return
}
func.func private @printI64(i64)
