// The lowered form's host accesses against device copies nobody waited for: llvm.load and
// llvm.store, the llvm.intr.memcpy/memmove/memset intrinsics, what libc realloc reads of the old
// block, the string printCString and printString print, and allocas (the llvm.alloca stack is
// host memory the device knows, like the heap). Each names the bytes both touch and no others; the
// serial scheduler reports the same. The alloca case also runs in its high-level form
// (memref.alloca) and as upstream lowers that.
// RUN: split-file --leading-lines %s %t
// DEFINE: %{lower} = %mlir_opt --convert-scf-to-cf --gpu-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-vector-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts
// RUN: not %gpuinterp %t/access.mlir 2>&1 | FileCheck %s --check-prefix=ACCESS
// RUN: not %gpuinterp --sched=serial %t/access.mlir 2>&1 | FileCheck %s --check-prefix=ACCESS
// RUN: not %gpuinterp --sched=serial %t/string.mlir 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not %gpuinterp --sched=serial %t/realloc.mlir 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: not %gpuinterp %t/alloca.mlir 2>&1 | FileCheck %s --check-prefix=ALLOCA
// RUN: %{lower} %t/alloca.mlir > %t/alloca.ll.mlir
// RUN: not %gpuinterp %t/alloca.ll.mlir 2>&1 | FileCheck %s --check-prefix=ALLOCA-LL
// RUN: not %gpuinterp --sched=serial %t/alloca.ll.mlir 2>&1 | FileCheck %s --check-prefix=ALLOCA-LL
// RUN: not %gpuinterp --sched=serial %t/returned.mlir 2>&1 | FileCheck %s --check-prefix=RETURNED

//--- access.mlir
// The device writes bytes [0, 16) of the 32-byte block %h and reads bytes [0, 16) of %g.
module {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @main() {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %z = llvm.mlir.constant(0 : i8) : i8
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %c16 = llvm.mlir.constant(16 : i64) : i64
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %v = llvm.mlir.constant(7 : i32) : i32
    %d = llvm.call @mgpuMemAlloc(%c32, %s, %z) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemset32(%d, %v, %c8, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    %h = llvm.call @malloc(%c32) : (i64) -> !llvm.ptr
    %g = llvm.call @malloc(%c32) : (i64) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%h, %d, %c16, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%d, %g, %c16, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    %h2 = llvm.getelementptr %h[2] : (!llvm.ptr) -> !llvm.ptr, i32
    %g3 = llvm.getelementptr %g[3] : (!llvm.ptr) -> !llvm.ptr, i32
    // ACCESS: access.mlir:[[@LINE+1]]:10: error: data race (read-write): 'llvm.load' ([[@LINE+1]]:10, host) reads and 'llvm.call' @mgpuMemcpy ([[@LINE-4]]:5) writes bytes [8, 12) of the host memory allocated by 'llvm.call' @malloc ([[@LINE-6]]:10)
    %x = llvm.load %h2 : !llvm.ptr -> i32
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+1]]:5: error: data race (read-write): 'llvm.store' ([[@LINE+1]]:5, host) writes and 'llvm.call' @mgpuMemcpy ([[@LINE-7]]:5) reads bytes [12, 16) of the host memory allocated by 'llvm.call' @malloc ([[@LINE-9]]:10)
    llvm.store %x, %g3 : i32, !llvm.ptr
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+1]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [12, 16) of the host memory
    "llvm.intr.memset"(%g3, %z, %c16) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+4]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [0, 8) of the host memory
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+1]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [8, 16) of the host memory
    "llvm.intr.memcpy"(%g, %h2, %c8) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+7]]:5: error: data race (write-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [0, 8) of the host memory
    // ACCESS: note
    // ACCESS: note
    // ACCESS: access.mlir:[[@LINE+4]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [8, 16) of the host memory
    // ACCESS: note
    // ACCESS: note
    // ACCESS-NOT: error:
    "llvm.intr.memmove"(%h, %h2, %c8) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    // The halves no copy touches.
    %h4 = llvm.getelementptr %h[4] : (!llvm.ptr) -> !llvm.ptr, i32
    %g4 = llvm.getelementptr %g[4] : (!llvm.ptr) -> !llvm.ptr, i32
    "llvm.intr.memset"(%g4, %z, %c16) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
    "llvm.intr.memcpy"(%h4, %g4, %c16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @free(%h) : (!llvm.ptr) -> ()
    llvm.call @free(%g) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}

//--- string.mlir
// The device writes 12 bytes of "A" into a zeroed block; both prints read the string and its NUL.
module {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @printCString(!llvm.ptr)
  llvm.func @printString(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @main() {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %z = llvm.mlir.constant(0 : i8) : i8
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %c12 = llvm.mlir.constant(12 : i64) : i64
    %c16 = llvm.mlir.constant(16 : i64) : i64
    %a = llvm.mlir.constant(1094795585 : i32) : i32
    %d = llvm.call @mgpuMemAlloc(%c16, %s, %z) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemset32(%d, %a, %c3, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    %h = llvm.call @malloc(%c16) : (i64) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%h, %d, %c12, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    // STRING: string.mlir:[[@LINE+1]]:5: error: data race (read-write): 'llvm.call' @printCString ([[@LINE+1]]:5, host) reads and 'llvm.call' @mgpuMemcpy ([[@LINE-1]]:5) writes bytes [0, 12) of the host memory allocated by 'llvm.call' @malloc ([[@LINE-2]]:10)
    llvm.call @printCString(%h) : (!llvm.ptr) -> ()
    // STRING: string.mlir:[[@LINE+1]]:5: error: data race (read-write): 'llvm.call' @printString ([[@LINE+1]]:5, host) reads and 'llvm.call' @mgpuMemcpy ([[@LINE-3]]:5) writes bytes [0, 12) of the host memory
    llvm.call @printString(%h) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @free(%h) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}

//--- realloc.mlir
// realloc reads what it keeps of the old block (a race with the copy writing it), then frees it
// (a use after free).
module {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @main() {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %z = llvm.mlir.constant(0 : i8) : i8
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %c16 = llvm.mlir.constant(16 : i64) : i64
    %c40 = llvm.mlir.constant(40 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %v = llvm.mlir.constant(7 : i32) : i32
    %d = llvm.call @mgpuMemAlloc(%c16, %s, %z) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemset32(%d, %v, %c4, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    %h = llvm.call @malloc(%c64) : (i64) -> !llvm.ptr
    %h8 = llvm.getelementptr %h[8] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.call @mgpuMemcpy(%h8, %d, %c16, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    // Shrinking to 40 bytes keeps bytes [0, 40): only [32, 40) of what the copy writes.
    // REALLOC: realloc.mlir:[[@LINE+2]]:10: error: data race (read-write): 'llvm.call' @realloc ([[@LINE+2]]:10, host) reads and 'llvm.call' @mgpuMemcpy ([[@LINE-2]]:5) writes bytes [32, 40) of the host memory
    // REALLOC: realloc.mlir:[[@LINE+1]]:10: error: use after free: 'llvm.call' @realloc ([[@LINE+1]]:10) frees the host memory allocated by 'llvm.call' @malloc ([[@LINE-5]]:10) while 'llvm.call' @mgpuMemcpy ([[@LINE-3]]:5) may still write bytes [32, 48) of it
    %r = llvm.call @realloc(%h, %c40) : (!llvm.ptr, i64) -> !llvm.ptr
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @free(%r) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}

//--- alloca.mlir
// A copy into a stack buffer, read by the host (a race on bytes [4, 8)) and a copy out of one,
// written by the host (a race on bytes [8, 12)).
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %h = memref.alloca() : memref<4xi32>
    %g = memref.alloca() : memref<4xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %e, %t4 = gpu.alloc async [%t3] () : memref<4xi32>
    %t5 = gpu.memcpy async [%t4] %e, %g : memref<4xi32>, memref<4xi32>
    // ALLOCA: alloca.mlir:[[@LINE+2]]:10: error: data race (read-write): 'memref.load' ([[@LINE+2]]:10, host) reads and 'gpu.memcpy' ([[@LINE-3]]:11) writes bytes [4, 8) of the host memory allocated by 'memref.alloca' ([[@LINE-8]]:10)
    // ALLOCA-LL: error: data race (read-write): 'llvm.load' ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [4, 8) of the host memory allocated at 'the llvm.alloca stack'
    %x = memref.load %h[%c1] : memref<4xi32>
    // ALLOCA: alloca.mlir:[[@LINE+2]]:5: error: data race (read-write): 'memref.store' ([[@LINE+2]]:5, host) writes and 'gpu.memcpy' ([[@LINE-4]]:11) reads bytes [8, 12) of the host memory allocated by 'memref.alloca' ([[@LINE-10]]:10)
    // ALLOCA-LL: error: data race (read-write): 'llvm.store' ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [24, 28) of the host memory allocated at 'the llvm.alloca stack'
    memref.store %x, %g[%c2] : memref<4xi32>
    %t6 = gpu.dealloc async [%t5] %d : memref<4xi32>
    %t7 = gpu.dealloc async [%t6] %e : memref<4xi32>
    gpu.wait [%t7]
    return
  }
}

//--- returned.mlir
// @fill starts a copy into its own alloca and returns without waiting; the host's next alloca
// reuses those bytes: its store races with the copy (a use after return).
module {
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @fill(%s: !llvm.ptr, %d: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %a = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%a, %d, %c4, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @main() {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %z = llvm.mlir.constant(0 : i8) : i8
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %v = llvm.mlir.constant(7 : i32) : i32
    %d = llvm.call @mgpuMemAlloc(%c4, %s, %z) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemset32(%d, %v, %c1, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    llvm.call @fill(%s, %d) : (!llvm.ptr, !llvm.ptr) -> ()
    %b = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    // RETURNED: returned.mlir:[[@LINE+1]]:5: error: data race (write-write): 'llvm.store' ([[@LINE+1]]:5, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+}}:5) writes bytes [0, 4) of the host memory allocated at 'the llvm.alloca stack'
    llvm.store %v, %b : i32, !llvm.ptr
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}
