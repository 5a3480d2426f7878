// Thread, block and grid ids and sizes in all three dimensions, and lane ids, in both kernel
// forms (nvvm.read.ptx.sreg.* once lowered): each thread of a 2x2x1 grid of 3x2x2 blocks writes
// a number built from its coordinates at its global linear index.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// LOWERED: nvvm.read.ptx.sreg.tid.z
// LOWERED: nvvm.read.ptx.sreg.nctaid.y
// CHECK: [0,  1,  2,  10,  11,  12,  100,  101,  102,  110,  111,  112,  1000,  1001,  1002,  1010,  1011,  1012,  1100,  1101,  1102,  1110,  1111,  1112,  20000,  20001,  20002,  20010,  20011,  20012,  20100,  20101,  20102,  20110,  20111,  20112,  21000,  21001,  21002,  21010,  21011,  21012,  21100,  21101,  21102,  21110,  21111,  21112]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ids(%o: memref<48xi64>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %nx = gpu.block_dim x
      %ny = gpu.block_dim y
      %nz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %lane = gpu.lane_id
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %c20000 = arith.constant 20000 : index
      // value: by*20000 + bx*1000 + tz*100 + ty*10 + tx (+ lane - linear thread id, which is 0)
      %a = arith.muli %by, %c20000 : index
      %b = arith.muli %bx, %c1000 : index
      %c = arith.muli %tz, %c100 : index
      %d = arith.muli %ty, %c10 : index
      %v0 = arith.addi %a, %b : index
      %v1 = arith.addi %v0, %c : index
      %v2 = arith.addi %v1, %d : index
      %v3 = arith.addi %v2, %tx : index
      // linear thread id in the block, and the block's linear id in the grid
      %t0 = arith.muli %tz, %ny : index
      %t1 = arith.addi %t0, %ty : index
      %t2 = arith.muli %t1, %nx : index
      %t = arith.addi %t2, %tx : index
      %v4 = arith.addi %v3, %lane : index
      %v = arith.subi %v4, %t : index
      %bl0 = arith.muli %by, %gx : index
      %bl = arith.addi %bl0, %bx : index
      %nt0 = arith.muli %nx, %ny : index
      %nt = arith.muli %nt0, %nz : index
      %i0 = arith.muli %bl, %nt : index
      %i = arith.addi %i0, %t : index
      %vi = arith.index_cast %v : index to i64
      %g = arith.muli %gx, %gy : index
      %c4 = arith.constant 4 : index
      %ok = arith.cmpi eq, %g, %c4 : index
      scf.if %ok {
        memref.store %vi, %o[%i] : memref<48xi64>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %o = gpu.alloc host_shared () : memref<48xi64>
    gpu.launch_func @k::@ids blocks in (%c2, %c2, %c1) threads in (%c3, %c2, %c2) args(%o : memref<48xi64>)
    %u = memref.cast %o : memref<48xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    gpu.dealloc %o : memref<48xi64>
    return
  }
  func.func private @printMemrefI64(%ptr : memref<*xi64>)
}
