// A failed launch is sticky, in every form of a program: the launch stops, the host goes on until
// its next synchronization (gpu.wait, mgpuStreamSynchronize, mgpuEventSynchronize), which ends the
// run with exit status 1 and a note; nothing after it runs (no stale data is printed), and what
// the program had not freed yet is not reported as leaked. The second launch of @fill stores past
// the end of its buffer.
// RUN: split-file --leading-lines %s %t
// High-level form, under three schedulers:
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/prog.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial %t/prog.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:4 %t/prog.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// Lowered by gpuinterp --lower (mgpuStreamSynchronize ends it, named by gpu.wait's location):
// RUN: %gpuinterp --lower %t/prog.mlir -o %t/low.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/low.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// Lowered by upstream's passes, the kernel too (the device finds the out-of-bounds store):
// RUN: %mlir_opt %t/prog.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),convert-scf-to-cf,gpu-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,convert-vector-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' -o %t/up.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/up.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=UP %s < %t.err
// A lowered program written by hand, which synchronizes on an event:
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/hand.mlir >%t.out 2>%t.err
// RUN: FileCheck --check-prefix=HAND-OUT %s < %t.out
// RUN: FileCheck --check-prefix=HAND %s < %t.err

// OUT: [0,  1,  2,  3,  4,  5,  6,  7]
// OUT-NEXT: launched
// OUT-NOT: after the wait
// OUT-NOT: Memref

// ERR: prog.mlir:[[#@LINE+17]]:7: error: 'memref.store' op out-of-bounds store: bytes [32, 36) of the memref: index 8 is not in [0, 8) in dimension 0 (thread (1, 0, 0) of block (2, 0, 0))
// ERR: prog.mlir:[[#@LINE+36]]:5: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func'{{[^(]*}} ([[#@LINE+34]]:11) failed, and a failed launch is sticky
// ERR-NOT: leak
// UP: error: kernel store: bytes [{{[0-9]+}}, {{[0-9]+}}) are out of bounds of the 32-byte host-shared memory
// UP: note: the program ends at this synchronization: the kernel launched by 'gpu.launch_func' @k::@fill ({{[0-9]+:[0-9]+}}) failed, and a failed launch is sticky
// UP-NOT: leak
//--- prog.mlir
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%o: memref<8xi32>, %shift: index) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %bd = gpu.block_dim x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %j = arith.addi %i, %shift : index
      %v = arith.index_cast %i : index to i32
      memref.store %v, %o[%j] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %o = gpu.alloc host_shared () : memref<8xi32>
    %u = memref.cast %o : memref<8xi32> to memref<*xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@fill blocks in (%c4, %c1, %c1) threads in (%c2, %c1, %c1) args(%o : memref<8xi32>, %c0 : index)
    gpu.wait [%t1]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @k::@fill blocks in (%c4, %c1, %c1) threads in (%c2, %c1, %c1) args(%o : memref<8xi32>, %c3 : index)
    vector.print str "launched\n"
    gpu.wait [%t3]
    vector.print str "after the wait\n"
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %o : memref<8xi32>
    return
  }
}

// HAND-OUT: first launch done
// HAND-OUT-NEXT: recorded
// HAND-OUT-NOT: after
// HAND: hand.mlir:[[#@LINE+10]]:7: error: kernel store: bytes [{{[0-9]+}}, {{[0-9]+}}) are out of bounds of the 32-byte host-shared memory allocated by 'llvm.call' @mgpuMemAlloc ([[#@LINE+28]]:10) [out-of-bounds]
// HAND: hand.mlir:[[#@LINE+35]]:5: note: the program ends at this synchronization: the kernel launched by {{'[^']*'[^(]*}} ([[#@LINE+31]]:5) failed, and a failed launch is sticky
// HAND-NOT: leak
//--- hand.mlir
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @fill(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = llvm.add %t, %n : i32
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %t, %q : i32, !llvm.ptr
      llvm.return
    }
  }
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuEventCreate() -> !llvm.ptr
  llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuEventSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %bytes = llvm.mlir.constant(32 : i64) : i64
    %shared = llvm.mlir.constant(1 : i8) : i8
    %z = llvm.mlir.constant(0 : i32) : i32
    %four = llvm.mlir.constant(4 : i32) : i32
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %p = llvm.call @mgpuMemAlloc(%bytes, %s, %shared) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    gpu.launch_func <%s : !llvm.ptr> @k::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %z : i32)
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    vector.print str "first launch done\n"
    gpu.launch_func <%s : !llvm.ptr> @k::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%p : !llvm.ptr, %four : i32)
    %e = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
    llvm.call @mgpuEventRecord(%e, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    vector.print str "recorded\n"
    llvm.call @mgpuEventSynchronize(%e) : (!llvm.ptr) -> ()
    vector.print str "after the event sync\n"
    %v = llvm.load %p : !llvm.ptr -> i32
    vector.print %v : i32
    llvm.return
  }
}
