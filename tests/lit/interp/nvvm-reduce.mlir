// A block reduction in both forms: a gpu.func kernel and its convert-gpu-to-nvvm lowering. Each
// warp sums its values with butterfly shuffles (nvvm.shfl.sync bfly), lane 0 of each warp puts
// the warp's sum in workgroup memory (an addr_space 3 llvm.mlir.global once lowered), a barrier
// (nvvm.barrier0), thread 0 adds the warp sums and stores the block's sum, and atomically adds it
// to a total (llvm.atomicrmw). Shuffles up, down and idx with the valid flag
// (return_value_and_is_valid) fill a second buffer.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// RUN: %gpuinterp --sched=random:7 %t.mlir | FileCheck %s
// with scf lowered to cf first, the kernels branch with llvm.br and llvm.cond_br:
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm))' -o %t.cf.mlir
// RUN: FileCheck --check-prefix=CF %s < %t.cf.mlir
// RUN: %gpuinterp %t.cf.mlir | FileCheck %s
// CF: llvm.cond_br
// LOWERED: llvm.mlir.global internal @__wg_red_0() {addr_space = 3 : i32}
// LOWERED: nvvm.shfl.sync bfly
// LOWERED: nvvm.barrier0
// LOWERED: llvm.atomicrmw add
// LOWERED: nvvm.shfl.sync up {{.*}} {return_value_and_is_valid}
// block sums of 0..63 and 64..127, and the total
// CHECK: [2016,  6112]
// CHECK: [8128]
// up 3 (-1 for the first 3 lanes of each warp), down 5 (-1 for the last 5), idx 7
// CHECK: [-1,  -1,  -1,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  -1,  -1,  -1,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60]
// CHECK: [5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  -1,  -1,  -1,  -1,  -1,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  -1,  -1,  -1,  -1,  -1]
// CHECK: [7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39,  39]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @red(%in: memref<128xi32>, %out: memref<2xi32>, %total: memref<1xi32>) workgroup(%sh: memref<2xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %lane = gpu.lane_id
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<128xi32>
      %w = arith.constant 32 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %s1, %p1 = gpu.shuffle xor %v, %o16, %w : i32
      %a1 = arith.addi %v, %s1 : i32
      %s2, %p2 = gpu.shuffle xor %a1, %o8, %w : i32
      %a2 = arith.addi %a1, %s2 : i32
      %s3, %p3 = gpu.shuffle xor %a2, %o4, %w : i32
      %a3 = arith.addi %a2, %s3 : i32
      %s4, %p4 = gpu.shuffle xor %a3, %o2, %w : i32
      %a4 = arith.addi %a3, %s4 : i32
      %s5, %p5 = gpu.shuffle xor %a4, %o1, %w : i32
      %a5 = arith.addi %a4, %s5 : i32
      %warp = arith.divui %tx, %c32 : index
      %isl = arith.cmpi eq, %lane, %c0 : index
      scf.if %isl {
        memref.store %a5, %sh[%warp] : memref<2xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        %x = memref.load %sh[%c0] : memref<2xi32, #gpu.address_space<workgroup>>
        %y = memref.load %sh[%c1] : memref<2xi32, #gpu.address_space<workgroup>>
        %z = arith.addi %x, %y : i32
        memref.store %z, %out[%bx] : memref<2xi32>
        %old = memref.atomic_rmw addi %z, %total[%c0] : (i32, memref<1xi32>) -> i32
      }
      gpu.return
    }
    gpu.func @modes(%in: memref<64xi32>, %out: memref<3x64xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = memref.load %in[%tx] : memref<64xi32>
      %w = arith.constant 32 : i32
      %o3 = arith.constant 3 : i32
      %o5 = arith.constant 5 : i32
      %o7 = arith.constant 7 : i32
      %m1 = arith.constant -1 : i32
      %up, %upok = gpu.shuffle up %v, %o3, %w : i32
      %dn, %dnok = gpu.shuffle down %v, %o5, %w : i32
      %ix, %ixok = gpu.shuffle idx %v, %o7, %w : i32
      %a = arith.select %upok, %up, %m1 : i32
      %b = arith.select %dnok, %dn, %m1 : i32
      %c = arith.select %ixok, %ix, %m1 : i32
      memref.store %a, %out[%c0, %tx] : memref<3x64xi32>
      memref.store %b, %out[%c1, %tx] : memref<3x64xi32>
      memref.store %c, %out[%c2, %tx] : memref<3x64xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %z = arith.constant 0 : i32
    %in = gpu.alloc host_shared () : memref<128xi32>
    %out = gpu.alloc host_shared () : memref<2xi32>
    %total = gpu.alloc host_shared () : memref<1xi32>
    %sh = gpu.alloc host_shared () : memref<3x64xi32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %in[%i] : memref<128xi32>
    }
    memref.store %z, %total[%c0] : memref<1xi32>
    gpu.launch_func @k::@red blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<128xi32>, %out : memref<2xi32>, %total : memref<1xi32>)
    %in64 = memref.subview %in[0] [64] [1] : memref<128xi32> to memref<64xi32, strided<[1]>>
    %in64c = memref.cast %in64 : memref<64xi32, strided<[1]>> to memref<64xi32>
    gpu.launch_func @k::@modes blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in64c : memref<64xi32>, %sh : memref<3x64xi32>)
    %u = memref.cast %out : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %t = memref.cast %total : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%t) : (memref<*xi32>) -> ()
    %s0 = memref.subview %sh[0, 0] [1, 64] [1, 1] : memref<3x64xi32> to memref<64xi32, strided<[1]>>
    %s1 = memref.subview %sh[1, 0] [1, 64] [1, 1] : memref<3x64xi32> to memref<64xi32, strided<[1], offset: 64>>
    %s2 = memref.subview %sh[2, 0] [1, 64] [1, 1] : memref<3x64xi32> to memref<64xi32, strided<[1], offset: 128>>
    %u0 = memref.cast %s0 : memref<64xi32, strided<[1]>> to memref<*xi32>
    %u1 = memref.cast %s1 : memref<64xi32, strided<[1], offset: 64>> to memref<*xi32>
    %u2 = memref.cast %s2 : memref<64xi32, strided<[1], offset: 128>> to memref<*xi32>
    call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
    call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<128xi32>
    gpu.dealloc %out : memref<2xi32>
    gpu.dealloc %total : memref<1xi32>
    gpu.dealloc %sh : memref<3x64xi32>
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
