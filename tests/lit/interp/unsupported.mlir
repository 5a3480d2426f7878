// An op the interpreter cannot run yet is reported before anything runs, with its location.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: unsupported.mlir:[[@LINE+4]]:8: error: 'math.ctlz' op 'math.ctlz' is not supported by the interpreter yet
// CHECK-NOT: never printed
func.func @main() {
  %a = arith.constant 5 : i32
  %b = math.ctlz %a : i32
  return
}
