// The host accesses of host-race-memref, -vector and -llvm once the host has waited for the device
// ops: nothing races, so nothing is reported and the run exits 0, under every scheduler and in
// both program forms.
// RUN: split-file --leading-lines %s %t
// DEFINE: %{lower} = %mlir_opt --expand-realloc --convert-scf-to-cf --gpu-to-llvm --expand-strided-metadata --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts
// RUN: %gpuinterp %t/ops.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=serial %t/ops.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=random:5 %t/ops.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp %t/lowerable.mlir 2>&1 | FileCheck %s
// RUN: %{lower} %t/lowerable.mlir > %t/lowerable.ll.mlir
// RUN: %gpuinterp %t/lowerable.ll.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp --sched=serial %t/lowerable.ll.mlir 2>&1 | FileCheck %s
// RUN: %gpuinterp %t/llvm.mlir 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: %gpuinterp --sched=serial %t/llvm.mlir 2>&1 | FileCheck %s --check-prefix=STRING
// CHECK-NOT: error
// CHECK: ( 7, {{7|14}}, 7, 7 )
// CHECK-NOT: error
// STRING-NOT: error
// STRING: AAAAAAAAAAAA
// STRING-NOT: error

//--- ops.mlir
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %h = memref.alloc() : memref<4xi32>
    %g = memref.alloc() : memref<4xi32>
    %o = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %t4 = gpu.memcpy async [%t3] %d, %g : memref<4xi32>, memref<4xi32>
    gpu.wait [%t4]
    memref.copy %h, %o : memref<4xi32> to memref<4xi32>
    memref.copy %o, %g : memref<4xi32> to memref<4xi32>
    %x = memref.load %h[%c1] : memref<4xi32>
    memref.store %x, %g[%c2] : memref<4xi32>
    %a = memref.atomic_rmw addi %v, %h[%c1] : (i32, memref<4xi32>) -> i32
    %b = memref.generic_atomic_rmw %g[%c2] : memref<4xi32> {
    ^bb0(%old: i32):
      memref.atomic_yield %old : i32
    }
    %vec = vector.load %h[%c0] : memref<4xi32>, vector<4xi32>
    vector.store %vec, %g[%c0] : memref<4xi32>, vector<4xi32>
    %tr = vector.transfer_read %h[%c1], %v : memref<4xi32>, vector<4xi32>
    vector.transfer_write %tr, %g[%c0] : vector<4xi32>, memref<4xi32>
    %m = arith.constant dense<[true, false, true, true]> : vector<4xi1>
    %ml = vector.maskedload %h[%c0], %m, %vec : memref<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    vector.maskedstore %g[%c0], %m, %ml : memref<4xi32>, vector<4xi1>, vector<4xi32>
    %idx = arith.constant dense<[3, 2, 1, 0]> : vector<4xi32>
    %ga = vector.gather %h[%c0][%idx], %m, %vec : memref<4xi32>, vector<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    vector.scatter %g[%c0][%idx], %m, %ga : memref<4xi32>, vector<4xi32>, vector<4xi1>, vector<4xi32>
    %ex = vector.expandload %h[%c1], %m, %vec : memref<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    vector.compressstore %g[%c1], %m, %ex : memref<4xi32>, vector<4xi1>, vector<4xi32>
    %r = memref.realloc %h : memref<4xi32> to memref<8xi32>
    %t5 = gpu.wait async
    %t6 = gpu.dealloc async [%t5] %d : memref<4xi32>
    gpu.wait [%t6]
    vector.print %vec : vector<4xi32>
    memref.dealloc %r : memref<8xi32>
    memref.dealloc %g : memref<4xi32>
    memref.dealloc %o : memref<4xi32>
    return
  }
}

//--- lowerable.mlir
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %h = memref.alloc() : memref<4xi32>
    %g = memref.alloc() : memref<4xi32>
    %s = memref.alloca() : memref<4xi32>
    %every = memref.subview %g[0] [2] [2] : memref<4xi32> to memref<2xi32, strided<[2]>>
    %two = memref.subview %s[0] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %t4 = gpu.memcpy async [%t3] %s, %d : memref<4xi32>, memref<4xi32>
    %t5 = gpu.memcpy async [%t4] %d, %g : memref<4xi32>, memref<4xi32>
    gpu.wait [%t5]
    memref.copy %h, %g : memref<4xi32> to memref<4xi32>
    memref.copy %every, %two : memref<2xi32, strided<[2]>> to memref<2xi32, strided<[1]>>
    %x = memref.load %s[%c1] : memref<4xi32>
    memref.store %x, %g[%c2] : memref<4xi32>
    %vec = vector.load %h[%c0] : memref<4xi32>, vector<4xi32>
    vector.store %vec, %s[%c0] : memref<4xi32>, vector<4xi32>
    %r = memref.realloc %h : memref<4xi32> to memref<8xi32>
    %t6 = gpu.wait async
    %t7 = gpu.dealloc async [%t6] %d : memref<4xi32>
    gpu.wait [%t7]
    vector.print %vec : vector<4xi32>
    memref.dealloc %r : memref<8xi32>
    memref.dealloc %g : memref<4xi32>
    return
  }
}

//--- llvm.mlir
module {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @printCString(!llvm.ptr)
  llvm.func @printNewline()
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
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %c12 = llvm.mlir.constant(12 : i64) : i64
    %c16 = llvm.mlir.constant(16 : i64) : i64
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %a = llvm.mlir.constant(1094795585 : i32) : i32
    %seven = llvm.mlir.constant(7 : i32) : i32
    %d = llvm.call @mgpuMemAlloc(%c16, %s, %z) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemset32(%d, %a, %c3, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    %h = llvm.call @malloc(%c16) : (i64) -> !llvm.ptr
    %st = llvm.alloca %c4 x i32 : (i64) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%h, %d, %c12, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%st, %d, %c12, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @printCString(%h) : (!llvm.ptr) -> ()
    llvm.call @printNewline() : () -> ()
    %x = llvm.load %st : !llvm.ptr -> i32
    llvm.store %x, %h : i32, !llvm.ptr
    "llvm.intr.memcpy"(%st, %h, %c4) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memmove"(%h, %st, %c4) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memset"(%st, %z, %c16) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
    %h2 = llvm.call @realloc(%h, %c32) : (!llvm.ptr, i64) -> !llvm.ptr
    llvm.call @free(%h2) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}
