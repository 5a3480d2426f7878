// gpuinterp runs lowered code that loads a PTX module itself (mgpuModuleLoadJIT, as the LLVM IR
// upstream's gpu.binary translation makes): the interpreter lends its kernel engine to the mgpu*
// ABI, so the kernel runs there, with the interpreter's bounds checks; the second launch passes a
// count past the buffer, and the error is located in the PTX, named after the load.

// RUN: not %gpuinterp %s 2>&1 | FileCheck %s

// The first launch adds 1 to the first 5 of 1..8 (printI64 prints no separator):
// CHECK: 23456678
// CHECK: @mgpuModuleLoadJIT#1.ptx:21:2: error: kernel load: bytes [32, 36) are out of bounds of the 32-byte device memory allocated by 'llvm.call' @mgpuMemAlloc
// CHECK: @mgpuModuleLoadJIT#1.ptx:21:2: note: the access of thread (8, 0, 0) of block (0, 0, 0)
// CHECK: mgpuLaunchKernel: note: in the kernel launched here
// CHECK: note: the program ends at this synchronization
// CHECK: gpuinterp: 1 error

module {
  llvm.mlir.global internal constant @ptx(".version 8.0\0A.target sm_90\0A.address_size 64\0A\0A.visible .entry add_one(\0A\09.param .u64 add_one_param_0,\0A\09.param .u32 add_one_param_1\0A)\0A{\0A\09.reg .pred %p<2>;\0A\09.reg .b32 %r<5>;\0A\09.reg .b64 %rd<5>;\0A\09ld.param.u64 %rd1, [add_one_param_0];\0A\09ld.param.u32 %r1, [add_one_param_1];\0A\09mov.u32 %r2, %tid.x;\0A\09setp.ge.u32 %p1, %r2, %r1;\0A\09@%p1 bra $L__end;\0A\09cvta.to.global.u64 %rd2, %rd1;\0A\09mul.wide.u32 %rd3, %r2, 4;\0A\09add.s64 %rd4, %rd2, %rd3;\0A\09ld.global.u32 %r3, [%rd4];\0A\09add.s32 %r4, %r3, 1;\0A\09st.global.u32 [%rd4], %r4;\0A$L__end:\0A\09ret;\0A}\0A\00") : !llvm.array<518 x i8>
  llvm.mlir.global internal constant @kname("add_one\00") : !llvm.array<8 x i8>
  llvm.func @mgpuModuleLoadJIT(!llvm.ptr, i32) -> !llvm.ptr
  llvm.func @mgpuModuleGetFunction(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @mgpuModuleUnload(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i1) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuLaunchKernel(!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
  llvm.func @printI64(i64)
  llvm.func @printNewline()

  llvm.func @launch(%f: !llvm.ptr, %s: !llvm.ptr, %d: !llvm.ptr, %n: i32) {
    %one = llvm.mlir.constant(1 : i64) : i64
    %two = llvm.mlir.constant(2 : i64) : i64
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %z = llvm.mlir.constant(0 : i32) : i32
    %null = llvm.mlir.zero : !llvm.ptr
    %dp = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
    llvm.store %d, %dp : !llvm.ptr, !llvm.ptr
    %np = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
    llvm.store %n, %np : i32, !llvm.ptr
    %params = llvm.alloca %two x !llvm.ptr : (i64) -> !llvm.ptr
    llvm.store %dp, %params : !llvm.ptr, !llvm.ptr
    %p1 = llvm.getelementptr %params[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    llvm.store %np, %p1 : !llvm.ptr, !llvm.ptr
    llvm.call @mgpuLaunchKernel(%f, %one, %one, %one, %c32, %one, %one, %z, %s, %params, %null, %two) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
    llvm.return
  }

  llvm.func @main() {
    %one = llvm.mlir.constant(1 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %bytes = llvm.mlir.constant(32 : i64) : i64
    %lvl = llvm.mlir.constant(2 : i32) : i32
    %five = llvm.mlir.constant(5 : i32) : i32
    %nine = llvm.mlir.constant(9 : i32) : i32
    %false = llvm.mlir.constant(false) : i1
    %text = llvm.mlir.addressof @ptx : !llvm.ptr
    %name = llvm.mlir.addressof @kname : !llvm.ptr
    %m = llvm.call @mgpuModuleLoadJIT(%text, %lvl) : (!llvm.ptr, i32) -> !llvm.ptr
    %f = llvm.call @mgpuModuleGetFunction(%m, %name) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %h = llvm.alloca %c8 x i32 : (i64) -> !llvm.ptr
    llvm.br ^fill(%one : i64)
  ^fill(%i: i64):
    %done = llvm.icmp "sgt" %i, %c8 : i64
    llvm.cond_br %done, ^run, ^put
  ^put:
    %i1 = llvm.sub %i, %one : i64
    %q = llvm.getelementptr %h[%i1] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v = llvm.trunc %i : i64 to i32
    llvm.store %v, %q : i32, !llvm.ptr
    %next = llvm.add %i, %one : i64
    llvm.br ^fill(%next : i64)
  ^run:
    %d = llvm.call @mgpuMemAlloc(%bytes, %s, %false) : (i64, !llvm.ptr, i1) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%d, %h, %bytes, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @launch(%f, %s, %d, %five) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> ()
    llvm.call @mgpuMemcpy(%h, %d, %bytes, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    %zero = llvm.mlir.constant(0 : i64) : i64
    llvm.br ^print(%zero : i64)
  ^print(%j: i64):
    %pd = llvm.icmp "sge" %j, %c8 : i64
    llvm.cond_br %pd, ^again, ^show
  ^show:
    %pq = llvm.getelementptr %h[%j] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %pv = llvm.load %pq : !llvm.ptr -> i32
    %pw = llvm.sext %pv : i32 to i64
    llvm.call @printI64(%pw) : (i64) -> ()
    %jn = llvm.add %j, %one : i64
    llvm.br ^print(%jn : i64)
  ^again:
    llvm.call @printNewline() : () -> ()
    llvm.call @launch(%f, %s, %d, %nine) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%d, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuModuleUnload(%m) : (!llvm.ptr) -> ()
    llvm.return
  }
}
