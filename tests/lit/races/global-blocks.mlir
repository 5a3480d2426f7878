// Races between the blocks of one launch in global memory: blocks are never ordered with each
// other. Each entry, in the high-level form, lowered to mgpu* calls (--lower), and with kernels
// lowered to llvm + nvvm:
//   @shift   each thread loads the next element and stores it to its own: the last thread of
//            block 0 reads what thread 0 of block 1 writes: a read-write race (error, exit 1);
//   @ww      every block stores its id to element 0: a write-write race of different values;
//   @flag    every block stores 1 to element 0: a benign hazard (a note; a warning with
//            --race-check=strict; exit 0);
//   @mixed   block 0 updates element 0 atomically, the others store to it: a race;
//   @atomics every thread of 4 blocks adds 1 to element 0 atomically: no race, the sum is 128;
//   @clean   each thread doubles its own element in place, in two launches of different shapes:
//            no race.
// RUN: not %gpuinterp -e shift %s 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not %gpuinterp --sched=serial -e ww %s 2>&1 | FileCheck %s --check-prefix=WW
// RUN: %gpuinterp --sched=serial --race-check=off -e ww %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %gpuinterp --sched=serial -e flag %s 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: %gpuinterp --sched=serial --race-check=strict -e flag %s 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not %gpuinterp -e mixed %s 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: %gpuinterp -e atomics %s 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: %gpuinterp --sched=random:5 -e clean %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %gpuinterp --lower %s -o %t.low.mlir
// RUN: not %gpuinterp -e shift %t.low.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not %gpuinterp --sched=serial -e ww %t.low.mlir 2>&1 | FileCheck %s --check-prefix=WW
// RUN: %gpuinterp --sched=serial -e flag %t.low.mlir 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not %gpuinterp -e mixed %t.low.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: %gpuinterp -e atomics %t.low.mlir 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: %gpuinterp -e clean %t.low.mlir 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.nvvm.mlir
// RUN: not %gpuinterp -e shift %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT-LLVM
// RUN: not %gpuinterp --sched=serial -e ww %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=WW-LLVM
// RUN: %gpuinterp --sched=serial -e flag %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=FLAG-LLVM
// RUN: not %gpuinterp -e mixed %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=MIXED-LLVM
// RUN: %gpuinterp -e atomics %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: %gpuinterp -e clean %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=CLEAN
// SHIFT: global-blocks.mlir:67:7: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'memref.load' (66:12); blocks of one launch are not ordered
// SHIFT: global-blocks.mlir:66:12: note: the other access
// SHIFT: the kernel launched by {{'gpu.launch_func' @k::@shift|'llvm.call' @mgpuLaunchKernel}} ({{[0-9]+}}:{{[0-9]+}}) failed
// SHIFT-LLVM: error: 'llvm.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at {{.*}}; blocks of one launch are not ordered
// SHIFT-LLVM: note: the other access
// WW: global-blocks.mlir:74:7: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store' (74:7); blocks of one launch are not ordered
// WW-LLVM: error: 'llvm.store' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes
// OFF-NOT: race
// FLAG: global-blocks.mlir:80:7: note: 'memref.store' op benign race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there at 'memref.store' (80:7); blocks of one launch are not ordered; reported once per launch
// FLAG-NOT: error
// FLAG-NOT: benign
// FLAG-LLVM: note: 'llvm.store' op benign race in global memory
// STRICT: warning: 'memref.store' op benign race in global memory
// MIXED: global-blocks.mlir:91:9: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) updates atomically at 'memref.atomic_rmw' (89:14); blocks of one launch are not ordered
// MIXED-LLVM: error: 'llvm.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) updates atomically at
// ATOMICS-NOT: race
// ATOMICS: [128,  0]
// CLEAN-NOT: race
// CLEAN: [4,  8,  6,  8,  10,  12,  14,  16]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @shift(%m: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c63 = arith.constant 63 : index
      %b = arith.muli %bx, %c32 : index
      %i = arith.addi %b, %tx : index
      %j = arith.addi %i, %c1 : index
      %jj = arith.minui %j, %c63 : index
      %x = memref.load %m[%jj] : memref<64xi32>
      memref.store %x, %m[%i] : memref<64xi32>
      gpu.return
    }
    gpu.func @ww(%m: memref<64xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %bx : index to i32
      memref.store %v, %m[%c0] : memref<64xi32>
      gpu.return
    }
    gpu.func @flag(%m: memref<64xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1 : i32
      memref.store %v, %m[%c0] : memref<64xi32>
      gpu.return
    }
    gpu.func @mixed(%m: memref<64xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        %o = memref.atomic_rmw addi %one, %m[%c0] : (i32, memref<64xi32>) -> i32
      } else {
        memref.store %one, %m[%c0] : memref<64xi32>
      }
      gpu.return
    }
    gpu.func @count(%m: memref<64xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %o = memref.atomic_rmw addi %one, %m[%c0] : (i32, memref<64xi32>) -> i32
      gpu.return
    }
    gpu.func @double(%m: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c8 = arith.constant 8 : index
      %b = arith.muli %bx, %c8 : index
      %i = arith.addi %b, %tx : index
      %x = memref.load %m[%i] : memref<64xi32>
      %y = arith.addi %x, %x : i32
      memref.store %y, %m[%i] : memref<64xi32>
      gpu.return
    }
  }
  func.func @run(%f: index) -> memref<64xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0 : i32
    %m = gpu.alloc () : memref<64xi32>
    gpu.memset %m, %z : memref<64xi32>, i32
    scf.index_switch %f
    case 0 {
      gpu.launch_func @k::@shift blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<64xi32>)
      scf.yield
    }
    case 1 {
      gpu.launch_func @k::@ww blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<64xi32>)
      scf.yield
    }
    case 2 {
      gpu.launch_func @k::@flag blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<64xi32>)
      scf.yield
    }
    case 3 {
      gpu.launch_func @k::@mixed blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<64xi32>)
      scf.yield
    }
    case 4 {
      gpu.launch_func @k::@count blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<64xi32>)
      scf.yield
    }
    default {
      %h = memref.alloc() : memref<64xi32>
      %one = arith.constant 1 : i32
      scf.for %i = %c0 to %c8 step %c1 {
        %i1 = arith.addi %i, %c1 : index
        %v = arith.index_cast %i1 : index to i32
        memref.store %v, %h[%i] : memref<64xi32>
      }
      gpu.memcpy %m, %h : memref<64xi32>, memref<64xi32>
      gpu.launch_func @k::@double blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<64xi32>)
      gpu.launch_func @k::@double blocks in (%c4, %c1, %c1) threads in (%c2, %c1, %c1) args(%m : memref<64xi32>)
      memref.dealloc %h : memref<64xi32>
      scf.yield
    }
    return %m : memref<64xi32>
  }
  func.func @show(%m: memref<64xi32>, %n: index) {
    %c0 = arith.constant 0 : index
    %h = memref.alloc() : memref<64xi32>
    gpu.memcpy %h, %m : memref<64xi32>, memref<64xi32>
    %s = memref.subview %h[0] [%n] [1] : memref<64xi32> to memref<?xi32, strided<[1]>>
    %u = memref.cast %s : memref<?xi32, strided<[1]>> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<64xi32>
    gpu.dealloc %m : memref<64xi32>
    return
  }
  func.func @shift() {
    %f = arith.constant 0 : index
    %n = arith.constant 1 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func @ww() {
    %f = arith.constant 1 : index
    %n = arith.constant 1 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func @flag() {
    %f = arith.constant 2 : index
    %n = arith.constant 1 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func @mixed() {
    %f = arith.constant 3 : index
    %n = arith.constant 1 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func @atomics() {
    %f = arith.constant 4 : index
    %n = arith.constant 2 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func @clean() {
    %f = arith.constant 5 : index
    %n = arith.constant 8 : index
    %m = call @run(%f) : (index) -> memref<64xi32>
    call @show(%m, %n) : (memref<64xi32>, index) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
