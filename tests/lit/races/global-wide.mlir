// Races between blocks that share a block-wise frame (kernel.c: small one-row blocks of a kernel
// whose threads never meet run several to a frame, thread l of the frame being thread l % n of
// block first + l / n): each block's accesses are still its own, whichever path of the memory
// ops logged them. Each entry, in the high-level form and lowered to mgpu* calls (--lower):
//   @tail    10 blocks of 32 threads (a frame of 8, then one of 2 under a partial mask): each
//            block stores its 32 elements, block 8 then loads block 9's: a read-write race;
//   @edge    10 blocks of 32 threads store their elements, and the last thread of block 7 (the
//            first frame's last block) loads block 8's first: a race between two frames;
//   @shift   4 blocks of 8 threads, each thread loads the next element and stores it to its own:
//            block 0's last thread reads what block 1 writes;
//   @over    4 blocks of 4 threads store their block id to elements 0..3: different values;
//   @even    4 blocks of 4 threads store 1 to elements 0, 2, 4, 6 (one run per thread): a benign
//            hazard (a note; exit 0);
//   @next    blocks of one thread: block b stores 1 to element b, then 2 to element b + 1, so that
//            block b's first store and block b - 1's second write different values;
//   @nextsame the same with 1 both times: benign;
//   @uniform every block loads element 0 (one address for the frame), block 0 stores it: the
//            other blocks' loads race with it;
//   @row     every block loads elements 0..3 (one row for all the frame's blocks), block 0 stores
//            them;
//   @col     block b loads element b and stores to element b + 1;
//   @mixed   block 0 updates element 0 atomically, the others store to it (a kernel with atomics
//            runs a block per frame);
//   @clean   10 blocks of 32 threads store their elements' indices, then double those below 300
//            in place: no race.
// RUN: not %gpuinterp -e tail %s 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %gpuinterp -e edge %s 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: not %gpuinterp -e shift %s 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not %gpuinterp -e over %s 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: %gpuinterp -e even %s 2>&1 | FileCheck %s --check-prefix=EVEN
// RUN: not %gpuinterp -e next %s 2>&1 | FileCheck %s --check-prefix=NEXT
// RUN: %gpuinterp -e nextsame %s 2>&1 | FileCheck %s --check-prefix=NEXTSAME
// RUN: not %gpuinterp -e uniform %s 2>&1 | FileCheck %s --check-prefix=UNIFORM
// RUN: not %gpuinterp -e row %s 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: not %gpuinterp -e col %s 2>&1 | FileCheck %s --check-prefix=COL
// RUN: not %gpuinterp -e mixed %s 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: %gpuinterp -e clean %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %gpuinterp --race-check=off -e tail %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %gpuinterp --lower %s -o %t.low.mlir
// RUN: not %gpuinterp -e tail %t.low.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %gpuinterp -e edge %t.low.mlir 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: not %gpuinterp -e shift %t.low.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not %gpuinterp -e over %t.low.mlir 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: %gpuinterp -e even %t.low.mlir 2>&1 | FileCheck %s --check-prefix=EVEN
// RUN: not %gpuinterp -e next %t.low.mlir 2>&1 | FileCheck %s --check-prefix=NEXT
// RUN: %gpuinterp -e nextsame %t.low.mlir 2>&1 | FileCheck %s --check-prefix=NEXTSAME
// RUN: not %gpuinterp -e uniform %t.low.mlir 2>&1 | FileCheck %s --check-prefix=UNIFORM
// RUN: not %gpuinterp -e row %t.low.mlir 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: not %gpuinterp -e col %t.low.mlir 2>&1 | FileCheck %s --check-prefix=COL
// RUN: not %gpuinterp -e mixed %t.low.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: %gpuinterp -e clean %t.low.mlir 2>&1 | FileCheck %s --check-prefix=CLEAN
// TAIL: error: 'memref.store' op data race in global memory: block (9, 0, 0) writes 128 bytes at 0x{{[0-9a-f]+}}, which block (8, 0, 0) reads at 'memref.load' ({{[0-9]+}}:14); blocks of one launch are not ordered
// TAIL: note: the other access
// EDGE: error: 'memref.store' op data race in global memory: block (8, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (7, 0, 0) reads at 'memref.load'
// SHIFT: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) reads at 'memref.load'
// OVER: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes a different value to 16 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store'
// EVEN: note: 'memref.store' op benign race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there
// EVEN-NOT: error
// EVEN: [1,  0,  1,  0,  1,  0,  1,  0]
// NEXT: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes a different value to 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) writes at 'memref.store'
// NEXTSAME: note: 'memref.store' op benign race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}} with the value block (0, 0, 0) wrote there
// NEXTSAME-NOT: error
// NEXTSAME: [1,  1,  1,  1,  1,  1,  1,  1,  1,  0]
// UNIFORM: error: 'memref.store' op data race in global memory: block (0, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (1, 0, 0) reads at 'memref.load'
// ROW: error: 'memref.store' op data race in global memory: block (0, 0, 0) writes 16 bytes at 0x{{[0-9a-f]+}}, which block (1, 0, 0) reads at 'memref.load'
// COL: error: 'memref.store' op data race in global memory: block (2, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (3, 0, 0) reads at 'memref.load'
// MIXED: error: 'memref.store' op data race in global memory: block (1, 0, 0) writes 4 bytes at 0x{{[0-9a-f]+}}, which block (0, 0, 0) updates atomically at 'memref.atomic_rmw'
// CLEAN-NOT: race
// CLEAN: [0,  2,  4,  6,
// OFF-NOT: race
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tail(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      %v = arith.index_cast %i : index to i32
      memref.store %v, %m[%i] : memref<320xi32>
      %eight = arith.cmpi eq, %bx, %c8 : index
      scf.if %eight {
        %j = arith.addi %i, %c32 : index
        %x = memref.load %m[%j] : memref<320xi32>
      }
      gpu.return
    }
    gpu.func @edge(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      %v = arith.index_cast %i : index to i32
      memref.store %v, %m[%i] : memref<320xi32>
      %last = arith.cmpi eq, %i, %c255 : index
      %i1 = arith.addi %i, %c1 : index
      %j = arith.select %last, %i1, %i : index
      %x = memref.load %m[%j] : memref<320xi32>
      gpu.return
    }
    gpu.func @shift(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      %j = arith.addi %i, %c1 : index
      %jj = arith.minui %j, %c31 : index
      %x = memref.load %m[%jj] : memref<320xi32>
      memref.store %x, %m[%i] : memref<320xi32>
      gpu.return
    }
    gpu.func @over(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %v = arith.index_cast %bx : index to i32
      memref.store %v, %m[%tx] : memref<320xi32>
      gpu.return
    }
    gpu.func @even(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %i = arith.muli %tx, %c2 : index
      %one = arith.constant 1 : i32
      memref.store %one, %m[%i] : memref<320xi32>
      gpu.return
    }
    gpu.func @next(%m: memref<320xi32>, %second: i32) kernel {
      %bx = gpu.block_id x
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i32
      memref.store %one, %m[%bx] : memref<320xi32>
      %j = arith.addi %bx, %c1 : index
      memref.store %second, %m[%j] : memref<320xi32>
      gpu.return
    }
    gpu.func @uniform(%m: memref<320xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%c0] : memref<320xi32>
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        %one = arith.constant 1 : i32
        %y = arith.addi %x, %one : i32
        memref.store %y, %m[%c0] : memref<320xi32>
      }
      gpu.return
    }
    gpu.func @row(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%tx] : memref<320xi32>
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        memref.store %x, %m[%tx] : memref<320xi32>
      }
      gpu.return
    }
    gpu.func @col(%m: memref<320xi32>) kernel {
      %bx = gpu.block_id x
      %c1 = arith.constant 1 : index
      %x = memref.load %m[%bx] : memref<320xi32>
      %j = arith.addi %bx, %c1 : index
      memref.store %x, %m[%j] : memref<320xi32>
      gpu.return
    }
    gpu.func @mixed(%m: memref<320xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        %o = memref.atomic_rmw addi %one, %m[%c0] : (i32, memref<320xi32>) -> i32
      } else {
        memref.store %one, %m[%c0] : memref<320xi32>
      }
      gpu.return
    }
    gpu.func @fill(%m: memref<320xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      %v = arith.index_cast %i : index to i32
      memref.store %v, %m[%i] : memref<320xi32>
      gpu.return
    }
    gpu.func @double(%m: memref<320xi32>, %n: index) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %x = memref.load %m[%i] : memref<320xi32>
        %y = arith.addi %x, %x : i32
        memref.store %y, %m[%i] : memref<320xi32>
      }
      gpu.return
    }
  }
  func.func @run(%f: index) -> memref<320xi32> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c32 = arith.constant 32 : index
    %c300 = arith.constant 300 : index
    %z = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %m = gpu.alloc () : memref<320xi32>
    gpu.memset %m, %z : memref<320xi32>, i32
    scf.index_switch %f
    case 0 {
      gpu.launch_func @k::@tail blocks in (%c10, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 1 {
      gpu.launch_func @k::@shift blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 2 {
      gpu.launch_func @k::@over blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 3 {
      gpu.launch_func @k::@even blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 4 {
      gpu.launch_func @k::@next blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<320xi32>, %i2 : i32)
      scf.yield
    }
    case 5 {
      gpu.launch_func @k::@next blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<320xi32>, %i1 : i32)
      scf.yield
    }
    case 6 {
      gpu.launch_func @k::@uniform blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 7 {
      gpu.launch_func @k::@row blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 8 {
      gpu.launch_func @k::@col blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 9 {
      gpu.launch_func @k::@mixed blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    case 11 {
      gpu.launch_func @k::@edge blocks in (%c10, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<320xi32>)
      scf.yield
    }
    default {
      gpu.launch_func @k::@fill blocks in (%c10, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<320xi32>)
      gpu.launch_func @k::@double blocks in (%c10, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<320xi32>, %c300 : index)
      scf.yield
    }
    return %m : memref<320xi32>
  }
  func.func @show(%f: index, %n: index) {
    %c0 = arith.constant 0 : index
    %m = call @run(%f) : (index) -> memref<320xi32>
    %h = memref.alloc() : memref<320xi32>
    gpu.memcpy %h, %m : memref<320xi32>, memref<320xi32>
    %s = memref.subview %h[%c0] [%n] [1] : memref<320xi32> to memref<?xi32, strided<[1], offset: ?>>
    %u = memref.cast %s : memref<?xi32, strided<[1], offset: ?>> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<320xi32>
    gpu.dealloc %m : memref<320xi32>
    return
  }
  func.func @tail() {
    %f = arith.constant 0 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @edge() {
    %f = arith.constant 11 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @shift() {
    %f = arith.constant 1 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @over() {
    %f = arith.constant 2 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @even() {
    %f = arith.constant 3 : index
    %n = arith.constant 8 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @next() {
    %f = arith.constant 4 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @nextsame() {
    %f = arith.constant 5 : index
    %n = arith.constant 10 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @uniform() {
    %f = arith.constant 6 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @row() {
    %f = arith.constant 7 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @col() {
    %f = arith.constant 8 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @mixed() {
    %f = arith.constant 9 : index
    %n = arith.constant 1 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func @clean() {
    %f = arith.constant 10 : index
    %n = arith.constant 320 : index
    call @show(%f, %n) : (index, index) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
