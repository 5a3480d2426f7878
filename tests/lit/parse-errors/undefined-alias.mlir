// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A use of a type alias that is never defined.
// CHECK: {{.*}}undefined-alias.mlir:8:34: error: undefined symbol alias id 'not_defined'
// CHECK-NEXT: {{^}}func.func private @f(!not_defined)
// CHECK-NEXT: {{^}}                                 ^

func.func private @f(!not_defined)
