// A lowered file printed without -mlir-print-debuginfo cannot be matched to the program: a clear
// error that says how to print it, exit 2.
// RUN: %mlir_opt --gpu-to-llvm %root/examples/copy.mlir -o %t.ll.mlir
// RUN: not %gpuinterp --diff %root/examples/copy.mlir --against %t.ll.mlir 2> %t.err | count 0; test $? = 0
// RUN: %gpuinterp --diff %root/examples/copy.mlir --against %t.ll.mlir 2> /dev/null; test $? = 2
// RUN: FileCheck %s < %t.err
// CHECK: ll.mlir: error: the lowered file has no locations of '{{.*}}copy.mlir', so its ops cannot be matched to the program's; print it with them: mlir-opt ... -mlir-print-debuginfo
