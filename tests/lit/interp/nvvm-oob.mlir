// An out-of-bounds store in a kernel already lowered to llvm + nvvm (convert-gpu-to-nvvm's form of
// gpu-kernel-oob.mlir's kernel): the access is checked against the memref the launch passed,
// reported at the llvm.store with the element, the memref's size and the thread and block, and
// the run exits 1. Block 1's threads 4..7 store past the end of the 12-element buffer.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// CHECK: nvvm-oob.mlir:[[@LINE+25]]:7: error: 'llvm.store' op out-of-bounds store: bytes [48, 52) of the memref passed as kernel operand 0: element 12 is not in [0, 12) (thread (4, 0, 0) of block (1, 0, 0))
// CHECK-NEXT: {{^}}      llvm.store %f, %p : f32, !llvm.ptr
// CHECK-NOT: error:
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @fill(%alloc: !llvm.ptr, %aligned: !llvm.ptr, %off: i64, %size: i64, %stride: i64) attributes {gpu.kernel, nvvm.kernel} {
      %f = llvm.mlir.constant(1.000000e+00 : f32) : f32
      %c8 = llvm.mlir.constant(8 : index) : i64
      %n = llvm.mlir.constant(12 : index) : i64
      %bx32 = nvvm.read.ptx.sreg.ctaid.x : i32
      %bx = llvm.sext %bx32 : i32 to i64
      %tx32 = nvvm.read.ptx.sreg.tid.x : i32
      %tx = llvm.sext %tx32 : i32 to i64
      %i0 = llvm.mul %bx, %c8 : i64
      %i = llvm.add %i0, %tx : i64
      // a guarded access never faults
      %ok = llvm.icmp "ult" %i, %n : i64
      llvm.cond_br %ok, ^guarded, ^store
    ^guarded:
      %q = llvm.getelementptr inbounds|nuw %aligned[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %x = llvm.load %q : !llvm.ptr -> f32
      llvm.br ^store
    ^store:
      %p = llvm.getelementptr inbounds|nuw %aligned[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %f, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %m = gpu.alloc () : memref<12xf32>
    gpu.memset %m, %zero : memref<12xf32>, f32
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@fill blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<12xf32>)
    gpu.wait [%k]
    %after = arith.constant 12345 : i64
    func.call @printI64(%after) : (i64) -> ()
    return
  }
  func.func private @printI64(i64)
}
