// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Custom forms of the LLVM dialect ops that host code lowered to LLVM is made of.
//
// The first part is real output of
//   mlir-opt --pass-pipeline='builtin.module(convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm),
//     gpu-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,convert-arith-to-llvm,
//     convert-cf-to-llvm,reconcile-unrealized-casts)'
// on a program with gpu.wait, gpu.alloc, gpu.memcpy, gpu.launch_func and cf.assert in a loop.
// The second part (from @str on) writes each op in the spellings its syntax allows: linkages,
// `constant` globals with string, scalar, dense and region initializers, declarations with
// argument and result attributes and varargs, overflow, exact, disjoint and nneg flags,
// non-default fastmath flags (printed in the attribute dictionary), atomic and volatile memory
// ops, getelementptr with constant, negative and dynamic indices and each no-wrap flag, direct,
// indirect, vararg and tail calls, branches (with weights) and switches with and without
// arguments, atomicrmw, cmpxchg, fence, the common llvm.intr.* math intrinsics, and the
// visibility, thread_local, unnamed_addr and calling-convention keywords.

module attributes {gpu.container_module} {
  llvm.func @free(!llvm.ptr)
  llvm.func @abort()
  llvm.func @puts(!llvm.ptr)
  llvm.mlir.global private constant @assert_msg(dense<[115, 109, 97, 108, 108, 0]> : tensor<6xi8>) {addr_space = 0 : i32} : !llvm.array<6 x i8>
  llvm.func @malloc(i64) -> !llvm.ptr
  gpu.module @kernels {
    llvm.func @scale(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: f32) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.getelementptr inbounds|nuw %arg1[3] : (!llvm.ptr) -> !llvm.ptr, f32
      %1 = llvm.load %0 : !llvm.ptr -> f32
      %2 = llvm.fmul %1, %arg5 : f32
      %3 = llvm.getelementptr inbounds|nuw %arg1[3] : (!llvm.ptr) -> !llvm.ptr, f32
      llvm.store %2, %3 : f32, !llvm.ptr
      llvm.return
    }
  }
  llvm.func @main() {
    %0 = llvm.mlir.constant(1 : index) : i64
    %1 = llvm.mlir.constant(16 : index) : i64
    %2 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %3 = llvm.mlir.constant(16 : index) : i64
    %4 = llvm.mlir.constant(1 : index) : i64
    %5 = llvm.mlir.zero : !llvm.ptr
    %6 = llvm.getelementptr %5[%3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %7 = llvm.ptrtoint %6 : !llvm.ptr to i64
    %8 = llvm.call @malloc(%7) : (i64) -> !llvm.ptr
    %9 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %10 = llvm.insertvalue %8, %9[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %11 = llvm.insertvalue %8, %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %12 = llvm.mlir.constant(0 : index) : i64
    %13 = llvm.insertvalue %12, %11[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %14 = llvm.insertvalue %3, %13[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %15 = llvm.insertvalue %4, %14[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %16 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %17 = llvm.mlir.constant(16 : index) : i64
    %18 = llvm.mlir.constant(1 : index) : i64
    %19 = llvm.mlir.zero : !llvm.ptr
    %20 = llvm.getelementptr %19[%17] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %21 = llvm.ptrtoint %20 : !llvm.ptr to i64
    %22 = llvm.mlir.zero : !llvm.ptr
    %23 = llvm.mlir.constant(0 : i8) : i8
    %24 = llvm.call @mgpuMemAlloc(%21, %16, %23) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %25 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %26 = llvm.insertvalue %24, %25[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %27 = llvm.insertvalue %24, %26[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %28 = llvm.mlir.constant(0 : index) : i64
    %29 = llvm.insertvalue %28, %27[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %30 = llvm.insertvalue %17, %29[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %31 = llvm.insertvalue %18, %30[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %32 = llvm.mlir.constant(16 : index) : i64
    %33 = llvm.mlir.zero : !llvm.ptr
    %34 = llvm.getelementptr %33[%32] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %35 = llvm.ptrtoint %34 : !llvm.ptr to i64
    %36 = llvm.extractvalue %15[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %37 = llvm.extractvalue %31[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    llvm.call @mgpuMemcpy(%37, %36, %35, %16) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    %38 = llvm.extractvalue %31[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %39 = llvm.extractvalue %31[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %40 = llvm.extractvalue %31[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %41 = llvm.extractvalue %31[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %42 = llvm.extractvalue %31[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    gpu.launch_func <%16 : !llvm.ptr> @kernels::@scale blocks in (%0, %0, %0) threads in (%1, %0, %0) : i64 args(%38 : !llvm.ptr, %39 : !llvm.ptr, %40 : i64, %41 : i64, %42 : i64, %2 : f32)
    %43 = llvm.mlir.constant(16 : index) : i64
    %44 = llvm.mlir.zero : !llvm.ptr
    %45 = llvm.getelementptr %44[%43] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %46 = llvm.ptrtoint %45 : !llvm.ptr to i64
    %47 = llvm.extractvalue %31[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %48 = llvm.extractvalue %15[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    llvm.call @mgpuMemcpy(%48, %47, %46, %16) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%16) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%16) : (!llvm.ptr) -> ()
    llvm.br ^bb1(%0 : i64)
  ^bb1(%49: i64):  // 2 preds: ^bb0, ^bb3
    %50 = llvm.icmp "slt" %49, %1 : i64
    llvm.cond_br %50, ^bb2, ^bb4
  ^bb2:  // pred: ^bb1
    %51 = llvm.extractvalue %15[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %52 = llvm.getelementptr inbounds|nuw %51[%49] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %53 = llvm.load %52 : !llvm.ptr -> f32
    %54 = llvm.fcmp "olt" %53, %2 : f32
    llvm.cond_br %54, ^bb3, ^bb5
  ^bb3:  // pred: ^bb2
    %55 = llvm.add %49, %0 : i64
    llvm.br ^bb1(%55 : i64)
  ^bb4:  // pred: ^bb1
    %56 = llvm.extractvalue %15[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    llvm.call @free(%56) : (!llvm.ptr) -> ()
    llvm.return
  ^bb5:  // pred: ^bb2
    %57 = llvm.mlir.addressof @assert_msg : !llvm.ptr
    %58 = llvm.getelementptr %57[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x i8>
    llvm.call @puts(%58) : (!llvm.ptr) -> ()
    llvm.call @abort() : () -> ()
    llvm.unreachable
  }
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)

  llvm.mlir.global internal constant @str("hello\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global external @ext() : i32
  llvm.mlir.global private @priv(3 : i64) {alignment = 8 : i64} : i64
  llvm.mlir.global common @shared(0 : i32) {addr_space = 3 : i32, dso_local} : i32
  llvm.mlir.global internal @init() : !llvm.struct<(i32, f32)> {
    %0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %1 = llvm.mlir.constant(7 : i32) : i32
    %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f32)>
    llvm.return %2 : !llvm.struct<(i32, f32)>
  }
  llvm.mlir.global weak_odr @arr(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !llvm.array<2 x f32>
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @vf(...)
  llvm.func @decl(i64 {llvm.noundef}, !llvm.ptr {llvm.noalias, llvm.nocapture}) -> (!llvm.ptr {llvm.noalias})
  llvm.func @priv_fn() attributes {llvm.emit_c_interface, sym_visibility = "private"}
  llvm.func internal @f(%arg0: !llvm.ptr {llvm.noalias}, %arg1: i64) -> i64 attributes {passthrough = ["nounwind"]} {
    %c = llvm.mlir.constant(1 : i64) : i64
    %cv = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>
    %t = llvm.mlir.constant(true) : i1
    %a = llvm.add %arg1, %c overflow<nsw> : i64
    %x = llvm.mlir.constant(1.0 : f32) : f32
    %b = llvm.fadd %x, %x {fastmathFlags = #llvm.fastmath<fast>} : f32
    %n = llvm.fneg %b {fastmathFlags = #llvm.fastmath<nnan>} : f32
    %p = llvm.alloca %c x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    %p2 = llvm.alloca inalloca %c x !llvm.struct<(i32, f32)> : (i64) -> !llvm.ptr
    %l = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
    %l2 = llvm.load volatile %p : !llvm.ptr -> i32
    %l4 = llvm.load %p atomic syncscope("agent") monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
    %l3 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
    llvm.store %l, %p {alignment = 4 : i64} : i32, !llvm.ptr
    llvm.store %l, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
    %g = llvm.getelementptr inbounds %arg0[%arg1, 1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
    %g2 = llvm.getelementptr nuw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8
    %g3 = llvm.getelementptr %arg0[%arg1, %arg1] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<4 x f32>
    %cmp = llvm.icmp "slt" %a, %c : i64
    %cmpu = llvm.icmp "uge" %a, %c : i64
    %fc = llvm.fcmp "olt" %b, %x : f32
    %ft = llvm.fcmp "_true" %b, %x {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
    %s = llvm.select %cmp, %a, %c : i1, i64
    %sf = llvm.select %cmp, %b, %x {fastmathFlags = #llvm.fastmath<nsz>} : i1, f32
    %z = llvm.zext %l : i32 to i64
    %ad = llvm.mlir.addressof @str : !llvm.ptr
    %r = llvm.call @printf(%ad, %a) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
    llvm.call @vf() vararg(!llvm.func<void (...)>) : () -> ()
    llvm.call @priv_fn() {fastmathFlags = #llvm.fastmath<fast>} : () -> ()
    %fp = llvm.mlir.addressof @f : !llvm.ptr
    %r2 = llvm.call %fp(%arg0, %a) : !llvm.ptr, (!llvm.ptr, i64) -> i64
    %r3 = llvm.call tail @f(%arg0, %a) : (!llvm.ptr, i64) -> i64
    %u = llvm.mlir.poison : i64
    %m = llvm.mul %a, %u : i64
    %d1 = llvm.udiv %m, %c : i64
    %d2 = llvm.srem %m, %c : i64
    %d3 = llvm.urem %m, %c : i64
    %d4 = llvm.and %m, %c : i64
    %d5 = llvm.xor %m, %c : i64
    %d6 = llvm.sub %m, %c overflow<nuw> : i64
    %f1 = llvm.fsub %b, %x : f32
    %f2 = llvm.fdiv %b, %x : f32
    %f3 = llvm.frem %b, %x : f32
    %c1 = llvm.fptoui %b : f32 to i32
    %c2 = llvm.fptrunc %b : f32 to f16
    %c3 = llvm.uitofp nneg %l : i32 to f64
    %c4 = llvm.trunc %a overflow<nsw, nuw> : i64 to i8
    %c5 = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<3>
    %s2 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %e = llvm.extractvalue %s2[0] : !llvm.struct<(i32, f32)>
    llvm.cond_br %cmp, ^bb1(%a : i64), ^bb2
  ^bb1(%v: i64):
    llvm.br ^bb2
  ^bb2:
    llvm.switch %l : i32, ^bb1(%a : i64) [
      1: ^bb3,
      -2: ^bb1(%c : i64)
    ]
  ^bb3:
    llvm.switch %l : i32, ^bb4 [
      5: ^bb5,
      5: ^bb5
    ]
  ^bb4:
    llvm.switch %l : i32, ^bb5 []
  ^bb5:
    llvm.return %s : i64
  }
  llvm.func @u() {
    llvm.unreachable
  }

  llvm.func @atomics_and_intrinsics(%p: !llvm.ptr, %a: i32, %x: f32, %b: i1) {
    %0 = llvm.intr.smax(%a, %a) : (i32, i32) -> i32
    %1 = llvm.intr.fma(%x, %x, %x) : (f32, f32, f32) -> f32
    %2 = llvm.intr.sqrt(%x) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
    %3 = llvm.atomicrmw add %p, %a monotonic : !llvm.ptr, i32
    %4 = llvm.atomicrmw volatile fadd %p, %x syncscope("agent") seq_cst {alignment = 4 : i64} : !llvm.ptr, f32
    %5 = llvm.cmpxchg %p, %a, %a acq_rel monotonic : !llvm.ptr, i32
    %6 = llvm.cmpxchg weak volatile %p, %a, %a syncscope("x") seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
    llvm.fence acquire
    llvm.fence syncscope("agent") seq_cst
    %7 = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
    "llvm.intr.memcpy"(%p, %p, %a) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
    llvm.return
  }
  llvm.func @more_intrinsics(%p: !llvm.ptr, %x: f32, %a: i32) {
    %0 = llvm.intr.fabs(%x) : (f32) -> f32
    %1 = llvm.intr.pow(%x, %0) {fastmathFlags = #llvm.fastmath<afn>} : (f32, f32) -> f32
    %2 = llvm.intr.fmuladd(%x, %0, %1) : (f32, f32, f32) -> f32
    %3 = llvm.intr.ctpop(%a) : (i32) -> i32
    %4 = llvm.intr.umin(%a, %3) : (i32, i32) -> i32
    %5 = llvm.atomicrmw _xor %p, %a acquire : !llvm.ptr, i32
    %6 = llvm.atomicrmw uinc_wrap %p, %a release : !llvm.ptr, i32
    %7 = llvm.atomicrmw fminimum %p, %x acq_rel : !llvm.ptr, f32
    %c = llvm.icmp "ne" %4, %6 : i32
    llvm.cond_br %c weights([3, 1]), ^bb1, ^bb1
  ^bb1:
    llvm.return
  }

  llvm.mlir.global private unnamed_addr constant @s_ua("x\00") {dso_local}
  llvm.mlir.global private local_unnamed_addr constant @s_lua("x\00")
  llvm.mlir.global internal thread_local @tl(0 : i32) : i32
  llvm.mlir.global external protected @pv(0 : i32) : i32
  llvm.func fastcc @cc(%a: i32) -> i32 {
    llvm.return %a : i32
  }
  llvm.func hidden unnamed_addr cc_10 @hid()
  llvm.func internal protected local_unnamed_addr @hid2() {
    llvm.return
  }
  llvm.func weak @dl() attributes {dso_local} {
    llvm.return
  }
  llvm.func @cconv_calls(%a: i32, %p: !llvm.ptr) {
    %0 = llvm.call fastcc tail @cc(%a) : (i32) -> i32
    %1 = llvm.call fastcc @cc(%a) {no_unwind, will_return} : (i32) -> i32
    %2 = llvm.getelementptr %p[1] {my.attr = 3 : i32} : (!llvm.ptr) -> !llvm.ptr, i32
    %3 = llvm.load %p {alignment = 4 : i64, my.flag} : !llvm.ptr -> i32
    llvm.return
  }
}
