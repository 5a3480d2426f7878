// llvm.mlir.global's address space, checked as mlir-opt 22 checks it.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

// expected-error@+1 {{'llvm.mlir.global' op attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
llvm.mlir.global internal @negative(0 : i32) {addr_space = -1 : i32} : i32

// -----

llvm.mlir.global internal @shared(0 : i32) {addr_space = 3 : i32} : i32
