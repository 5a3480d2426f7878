// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A custom-form op of a dialect that does not exist.
// CHECK: {{.*}}unknown-op.mlir:9:3: error: Dialect `nosuchdialect' not found for custom op 'nosuchdialect.frob'
// CHECK-NEXT: {{^}}  nosuchdialect.frob
// CHECK-NEXT: {{^}}  ^

func.func @f() {
  nosuchdialect.frob
  return
}
