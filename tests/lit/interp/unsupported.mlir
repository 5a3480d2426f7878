// An op the interpreter cannot run yet is reported before anything runs, with its location.
// RUN: not %gpuinterp --allow-unregistered-dialect %s 2>&1 | FileCheck %s
// verify-corpus: unregistered dialect
// CHECK: unsupported.mlir:[[@LINE+4]]:8: error: 'mydialect.frobnicate' op 'mydialect.frobnicate' is not supported by the interpreter yet
// CHECK-NOT: never printed
func.func @main() {
  %a = arith.constant 5 : i32
  %b = "mydialect.frobnicate"(%a) : (i32) -> i32
  return
}
