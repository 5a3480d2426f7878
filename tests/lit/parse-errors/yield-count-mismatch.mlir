// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// scf.yield yields fewer values than the scf.if declares (verifier).
// CHECK: {{.*}}yield-count-mismatch.mlir:9:8: error: 'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs
// CHECK-NEXT: {{^}}  %r = scf.if %c -> (i32) {
// CHECK-NEXT: {{^}}       ^

func.func @f(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    scf.yield
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}
