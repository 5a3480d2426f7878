// Memory misuse through the mgpu* ABI: copies and a memset past an allocation, a copy from freed
// memory, a double free, and leaks (memory.test).
module {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuEventCreate() -> !llvm.ptr
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)

  llvm.func @main() {
    %n = llvm.mlir.constant(16 : i64) : i64
    %big = llvm.mlir.constant(64 : i64) : i64
    %c5 = llvm.mlir.constant(5 : i64) : i64
    %v = llvm.mlir.constant(3 : i32) : i32
    %f = llvm.mlir.constant(0 : i8) : i8
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %d = llvm.call @mgpuMemAlloc(%n, %s, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %h = llvm.call @malloc(%big) : (i64) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%d, %h, %big, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemset32(%d, %v, %c5, %s) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%h, %d, %n, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    %leak = llvm.call @mgpuMemAlloc(%n, %s, %f) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %e = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @free(%h) : (!llvm.ptr) -> ()
    llvm.return
  }
}
