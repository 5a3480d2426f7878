// gpu.all_reduce in a gpu.func kernel and in upstream's convert-gpu-to-nvvm lowering of it. The
// lowering reduces each warp with shuffles, has lane 0 of each warp store the warp's sum in
// workgroup memory, a barrier, then the first lanes (one per warp) load those sums, reduce them
// with shuffles and all store the total to element 0: several threads writing the same value
// with no barrier between them, a benign hazard (a note; a warning with --race-check=strict;
// never an error). The shuffles order those lanes' loads before the others' stores. Blocks of
// 128 threads (4 warps) and of 40 (a partial warp); the gpu.func form reports nothing.
// With 3 warps the lowering's second butterfly leaves lane 1 without warp 2's sum (its partner
// at offset 2 is past the active width), so lane 1 stores a different value than lanes 0 and 2:
// a real race of the lowering, an error (@main3; the gpu.func form is right).
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp %s 2>%t.err | FileCheck %s
// RUN: count 0 < %t.err
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp %t.mlir 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp --sched=random:3 %t.mlir 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp --race-check=strict %t.mlir 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=STRICT %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp --race-check=off %t.mlir 2>%t.err | FileCheck %s
// RUN: count 0 < %t.err
// RUN: %gpuinterp -e main3 %s 2>&1 | FileCheck --check-prefix=THREE %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e main3 %t.mlir 2>&1 | FileCheck --check-prefix=THREE-LOWERED %s
// THREE: [4560]
// THREE-LOWERED: error: 'llvm.store' op data race in shared memory: writes a different value to bytes [0, 4), which thread (0, 0, 0) wrote at '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) with no gpu.barrier in between (thread (1, 0, 0) of block ({{[0-9]+}}, 0, 0))
// THREE-LOWERED-NOT: Unranked
// LOWERED: llvm.mlir.global internal @__wg_sum_0() {addr_space = 3 : i32}
// LOWERED: nvvm.shfl.sync bfly
// LOWERED: nvvm.barrier0
// block sums of 0..127 and 128..255, then of 0..39, 40..79, 80..119
// CHECK: [8128,  24512]
// CHECK: [780,  2380,  3980]
// NOTE-NOT: error
// NOTE-NOT: warning
// NOTE: note: 'llvm.store' op benign race in shared memory: writes bytes [0, 4) with the value thread (0, 0, 0) wrote there at '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) with no gpu.barrier in between (thread (1, 0, 0) of block ({{[0-9]+}}, 0, 0)); reported once per op and launch
// NOTE-NOT: error
// NOTE-NOT: warning
// STRICT-NOT: error
// STRICT: warning: 'llvm.store' op benign race in shared memory
// STRICT-NOT: error
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum(%in: memref<256xi32>, %out: memref<3xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<256xi32>
      %s = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %c0 = arith.constant 0 : index
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        memref.store %s, %out[%bx] : memref<3xi32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %in = gpu.alloc host_shared () : memref<256xi32>
    %out = gpu.alloc host_shared () : memref<3xi32>
    scf.for %j = %c0 to %c256 step %c1 {
      %jj = arith.index_cast %j : index to i32
      memref.store %jj, %in[%j] : memref<256xi32>
    }
    %u = memref.cast %out : memref<3xi32> to memref<*xi32>
    %o2 = memref.subview %out[0] [2] [1] : memref<3xi32> to memref<2xi32, strided<[1]>>
    %u2 = memref.cast %o2 : memref<2xi32, strided<[1]>> to memref<*xi32>
    gpu.launch_func @k::@sum blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%in : memref<256xi32>, %out : memref<3xi32>)
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@sum blocks in (%c3, %c1, %c1) threads in (%c40, %c1, %c1) args(%in : memref<256xi32>, %out : memref<3xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<256xi32>
    gpu.dealloc %out : memref<3xi32>
    return
  }
  func.func @main3() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c96 = arith.constant 96 : index
    %c256 = arith.constant 256 : index
    %in = gpu.alloc host_shared () : memref<256xi32>
    %out = gpu.alloc host_shared () : memref<3xi32>
    scf.for %j = %c0 to %c256 step %c1 {
      %jj = arith.index_cast %j : index to i32
      memref.store %jj, %in[%j] : memref<256xi32>
    }
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c96, %c1, %c1) args(%in : memref<256xi32>, %out : memref<3xi32>)
    %o1 = memref.subview %out[0] [1] [1] : memref<3xi32> to memref<1xi32, strided<[1]>>
    %u1 = memref.cast %o1 : memref<1xi32, strided<[1]>> to memref<*xi32>
    call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<256xi32>
    gpu.dealloc %out : memref<3xi32>
    return
  }
}
