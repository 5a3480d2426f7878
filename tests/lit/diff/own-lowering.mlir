// REQUIRES: lowering
// The project's own lowering agrees with the program: exit 0, nothing printed.
// RUN: %gpuinterp --diff %root/examples/copy.mlir 2>&1 | count 0
// RUN: %gpuinterp --diff %S/token-arg.mlir 2>&1 | count 0
// RUN: %gpuinterp --diff %S/multi-dep.mlir 2>&1 | count 0
// RUN: %gpuinterp --diff %S/lost-wait-event.mlir --diff-strict 2>&1 | count 0
// RUN: %gpuinterp --diff %S/lost-concurrency-stream.mlir --diff-strict 2>&1 | count 0
// The program's own race is reported whatever the lowering.
// RUN: not %gpuinterp --diff %S/racy.mlir 2>&1 | FileCheck %s
// CHECK: error: the program has a race of its own
