// llvm.getelementptr's constant indices: i32 values, of which INT32_MIN marks a dynamic index, as
// mlir-opt 22 reads and checks them.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

llvm.func @constant_reads_as_dynamic(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op expected as many dynamic indices as specified in 'rawConstantIndices'}}
  %q = llvm.getelementptr %p[-2147483648, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64)>
  llvm.return
}

// -----

llvm.func @index_past_i32(%p: !llvm.ptr) {
  // expected-error@+1 {{custom op 'llvm.getelementptr' integer value too large}}
  %q = llvm.getelementptr %p[2147483648] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @index_below_i32(%p: !llvm.ptr) {
  // expected-error@+1 {{custom op 'llvm.getelementptr' integer value too large}}
  %q = llvm.getelementptr %p[-9223372036854775808] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @i32_extremes(%p: !llvm.ptr) {
  %q = llvm.getelementptr %p[2147483647] : (!llvm.ptr) -> !llvm.ptr, i32
  %r = llvm.getelementptr %p[-2147483647] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.return
}
