// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck --strict-whitespace %s
// A decimal integer among a float type's elements (a hex one is a bit pattern, and reads): in a
// constant, and in memref.global's initial value, whose type is the memref's.
// CHECK: {{.*}}dense-integer-for-float.mlir:14:35: error: unexpected decimal integer literal for a floating point value
// CHECK-NEXT: {{^}}  %0 = arith.constant dense<[1.5, 2]> : vector<2xf32>
// CHECK-NEXT: {{^}}                                  ^
// CHECK-NEXT: dense-integer-for-float.mlir:14:35: note: add a trailing dot to make the literal a float
// CHECK: {{.*}}dense-integer-for-float.mlir:20:42: error: unexpected decimal integer literal for a floating point value
// CHECK-NEXT: {{^}}memref.global @g : memref<4xf32> = dense<1>
// CHECK-NEXT: {{^}}                                         ^
// CHECK-NEXT: dense-integer-for-float.mlir:20:42: note: add a trailing dot to make the literal a float
func.func @f() -> vector<2xf32> {
  %0 = arith.constant dense<[1.5, 2]> : vector<2xf32>
  %1 = arith.constant dense<0x3F800000> : vector<2xf32>
  return %0 : vector<2xf32>
}

// -----
memref.global @g : memref<4xf32> = dense<1>
