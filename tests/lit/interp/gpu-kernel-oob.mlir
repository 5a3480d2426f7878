// A kernel access outside its memref is reported with the op, the index and the coordinates of
// the first thread found at fault; the launch stops and the run exits 1 when the host waits for
// it. Here block 1's threads 4..7 store past the end of a 12-element buffer.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// CHECK: gpu-kernel-oob.mlir:[[@LINE+19]]:7: error: 'memref.store' op out-of-bounds store: bytes [48, 52) of the memref: index 12 is not in [0, 12) in dimension 0 (thread (4, 0, 0) of block (1, 0, 0))
// CHECK-NEXT: {{^}}      memref.store %f, %m[%i] : memref<12xf32>
// CHECK-NOT: error:
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<12xf32>) kernel {
      %f = arith.constant 1.0 : f32
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %c8 : index
      %i = arith.addi %i0, %tx : index
      // a guarded access never faults
      %n = arith.constant 12 : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %x = memref.load %m[%i] : memref<12xf32>
      }
      memref.store %f, %m[%i] : memref<12xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %m = gpu.alloc () : memref<12xf32>
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@fill blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<12xf32>)
    gpu.wait [%k]
    %after = arith.constant 12345 : i64
    func.call @printI64(%after) : (i64) -> ()
    return
  }
  func.func private @printI64(i64)
}
