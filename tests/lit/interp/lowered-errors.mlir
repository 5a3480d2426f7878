// Errors in lowered code: every load, store and copy is checked against the memory the program
// owns (malloc blocks, globals, the alloca stack, mgpuMemAlloc), so a bad pointer is a located
// error instead of a crash; constants stay constant; frees must match; ops and functions the
// interpreter does not provide are reported before anything runs. Each run exits 1.

// RUN: split-file --leading-lines %s %t
// RUN: not %gpuinterp %t/oob.mlir 2>&1 | FileCheck --check-prefix=OOB %s
// RUN: not %gpuinterp %t/wild.mlir 2>&1 | FileCheck --check-prefix=WILD %s
// RUN: not %gpuinterp %t/const.mlir 2>&1 | FileCheck --check-prefix=CONST %s
// RUN: not %gpuinterp %t/free.mlir 2>&1 | FileCheck --check-prefix=FREE %s
// RUN: not %gpuinterp %t/stack.mlir 2>&1 | FileCheck --check-prefix=STACK %s
// RUN: not %gpuinterp %t/device.mlir 2>&1 | FileCheck --check-prefix=DEVICE %s
// RUN: not %gpuinterp %t/unreachable.mlir 2>&1 | FileCheck --check-prefix=UNREACHABLE %s
// RUN: not %gpuinterp %t/unsupported.mlir 2>&1 | FileCheck --check-prefix=NOTPROVIDED %s
// RUN: not %gpuinterp %t/memset.mlir 2>&1 | FileCheck --check-prefix=MEMSET %s
// RUN: not %gpuinterp %t/memset-huge.mlir 2>&1 | FileCheck --check-prefix=MEMSETHUGE %s
// RUN: not %gpuinterp %t/gep-huge.mlir 2>&1 | FileCheck --check-prefix=GEPHUGE --implicit-check-not='runtime error' %s
// A memref.load past the end, lowered with --mlir-print-debuginfo: the error names the load's
// original location and where the memory was allocated.
// RUN: %mlir_opt %t/memref.mlir --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-debuginfo > %t/memref.ll.mlir
// RUN: not %gpuinterp %t/memref.ll.mlir 2>&1 | FileCheck --check-prefix=MEMREF %s

//--- oob.mlir
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @main() {
  %n = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  %i = llvm.mlir.constant(4 : i64) : i64
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  // OOB: oob.mlir:[[@LINE+1]]:8: error: 'llvm.load' op out-of-bounds load: bytes [16, 20) of a 16-byte heap block allocated by 'llvm.call' @malloc ([[@LINE-3]]:8)
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.return
}

//--- wild.mlir
llvm.func @main() {
  %a = llvm.mlir.constant(3735928559 : i64) : i64
  %p = llvm.inttoptr %a : i64 to !llvm.ptr
  %v = llvm.mlir.constant(1.0 : f64) : f64
  // WILD: wild.mlir:[[@LINE+1]]:3: error: 'llvm.store' op store of 8 bytes at 0xdeadbeef, which is no memory the program allocated (malloc, alloca, a global or mgpuMemAlloc)
  llvm.store %v, %p : f64, !llvm.ptr
  llvm.return
}

//--- const.mlir
llvm.mlir.global private constant @k(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
llvm.func @main() {
  %p = llvm.mlir.addressof @k : !llvm.ptr
  %v = llvm.mlir.constant(5 : i32) : i32
  // CONST: const.mlir:[[@LINE+1]]:3: error: 'llvm.store' op store to the constant global allocated by 'llvm.mlir.global' ([[@LINE-4]]:1)
  llvm.store %v, %p : i32, !llvm.ptr
  llvm.return
}

//--- free.mlir
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @main() {
  %n = llvm.mlir.constant(8 : i64) : i64
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  // FREE: free.mlir:[[@LINE+1]]:3: error: 'llvm.call' op frees 0x{{[0-9a-f]+}}, which is not a live malloc block (double free?)
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}

//--- stack.mlir
llvm.func @leak() -> !llvm.ptr {
  %one = llvm.mlir.constant(1 : i64) : i64
  %p = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
llvm.func @main() {
  %p = llvm.call @leak() : () -> !llvm.ptr
  // STACK: stack.mlir:[[@LINE+1]]:8: error: 'llvm.load' op out-of-bounds load of 8 bytes at 0x{{[0-9a-f]+}}: past the live stack (alloca) memory
  %v = llvm.load %p : !llvm.ptr -> i64
  llvm.return
}

//--- device.mlir
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @main() {
  %n = llvm.mlir.constant(16 : i64) : i64
  %s = llvm.mlir.zero : !llvm.ptr
  %f = llvm.mlir.constant(0 : i8) : i8
  %d = llvm.call @mgpuMemAlloc(%n, %s, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  // DEVICE: device.mlir:[[@LINE+1]]:8: error: host load of device memory allocated by 'llvm.call' @mgpuMemAlloc ([[@LINE-1]]:8) (bytes [0, 4)); only host-shared memory is visible to the host [misuse]
  %v = llvm.load %d : !llvm.ptr -> f32
  llvm.return
}

//--- unreachable.mlir
llvm.func @main() {
  // UNREACHABLE: unreachable.mlir:[[@LINE+1]]:3: error: 'llvm.unreachable' op reached llvm.unreachable
  llvm.unreachable
}

//--- unsupported.mlir
llvm.func @getenv(!llvm.ptr) -> i32
llvm.func @main() {
  %z = llvm.mlir.zero : !llvm.ptr
  // NOTPROVIDED: unsupported.mlir:[[@LINE+1]]:8: error: 'llvm.call' op calls '@getenv', a function the interpreter does not provide
  %r = llvm.call @getenv(%z) : (!llvm.ptr) -> i32
  // NOTPROVIDED: unsupported.mlir:[[@LINE+1]]:3: error: 'llvm.call' op a call without a flat callee symbol is not supported by the interpreter yet
  llvm.call %z() : !llvm.ptr, () -> ()
  llvm.return
}

//--- memref.mlir
func.func @main() {
  %h = memref.alloc() : memref<4xf32>
  %c4 = arith.constant 4 : index
  // MEMREF: memref.mlir:[[@LINE+1]]:8: error: 'llvm.load' op out-of-bounds load: bytes [16, 20) of a 16-byte heap block allocated by 'memref.alloc' ([[@LINE-2]]:8)
  %v = memref.load %h[%c4] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %h : memref<4xf32>
  return
}

//--- memset.mlir
// A memset past its buffer.
llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
llvm.func @mgpuMemset16(!llvm.ptr, i16, i64, !llvm.ptr)
llvm.func @main() {
  %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  %n = llvm.mlir.constant(16 : i64) : i64
  %f = llvm.mlir.constant(0 : i8) : i8
  %d = llvm.call @mgpuMemAlloc(%n, %s, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  %v = llvm.mlir.constant(7 : i32) : i32
  %five = llvm.mlir.constant(5 : i64) : i64
  // MEMSET: memset.mlir:[[@LINE+1]]:3: error: 'llvm.call' op out-of-bounds memset: bytes [0, 20) of a 16-byte
  llvm.call @mgpuMemset32(%d, %v, %five, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
  llvm.return
}

//--- memset-huge.mlir
// A memset whose count of elements has more bytes than 64 bits hold.
llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
llvm.func @mgpuMemset16(!llvm.ptr, i16, i64, !llvm.ptr)
llvm.func @main() {
  %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  %n = llvm.mlir.constant(16 : i64) : i64
  %f = llvm.mlir.constant(0 : i8) : i8
  %d = llvm.call @mgpuMemAlloc(%n, %s, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  %v = llvm.mlir.constant(7 : i32) : i32
  %five = llvm.mlir.constant(5 : i64) : i64
  %h = llvm.mlir.constant(7 : i16) : i16
  %huge = llvm.mlir.constant(-1 : i64) : i64
  // MEMSETHUGE: memset-huge.mlir:[[@LINE+1]]:3: error: 'llvm.call' op memset of 18446744073709551615 elements: their bytes overflow 64 bits
  llvm.call @mgpuMemset16(%d, %h, %huge, %s) : (!llvm.ptr, i16, i64, !llvm.ptr) -> ()
  llvm.return
}

//--- gep-huge.mlir
// A getelementptr index of 2^63-1 over 24-byte structs (a constant index is an i32, so this one
// is an operand): the address wraps, as LLVM's does, and the load through it is refused.
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @main() {
  %n = llvm.mlir.constant(48 : i64) : i64
  %k = llvm.mlir.constant(9223372036854775807 : i64) : i64
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  %q = llvm.getelementptr %p[%k] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, i64, i64)>
  // GEPHUGE: gep-huge.mlir:[[@LINE+1]]:8: error: 'llvm.load' op
  %v = llvm.load %q : !llvm.ptr -> i64
  llvm.return
}
