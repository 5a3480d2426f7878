llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @mgpuEventSynchronize(!llvm.ptr)
llvm.func @main() {
  %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.call @mgpuEventSynchronize(%s) : (!llvm.ptr) -> ()
  llvm.return
}
