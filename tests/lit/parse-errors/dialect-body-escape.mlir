// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A string inside a dialect attribute's body is lexed as any string: an unknown escape is an
// error where the backslash is.
// CHECK: {{.*}}dialect-body-escape.mlir:[[# @LINE + 3]]:84: error: unknown escape in string literal

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\-\0A">]
}
