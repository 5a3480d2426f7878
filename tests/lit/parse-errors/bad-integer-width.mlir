// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An integer type wider than MLIR allows.
// CHECK: {{.*}}bad-integer-width.mlir:8:22: error: integer bitwidth is limited to 16777215 bits
// CHECK-NEXT: {{^}}func.func private @f(i16777216)
// CHECK-NEXT: {{^}}                     ^

func.func private @f(i16777216)
