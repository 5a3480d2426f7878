// Host memref ops against a device copy nobody waited for: memref.copy (its reads and its
// writes), memref.load and memref.store, memref.atomic_rmw, memref.generic_atomic_rmw and
// memref.realloc each report the race, naming the bytes both touch and no others. Happens-before
// decides, not timing: the serial scheduler (which has run the copy to its end before the host
// goes on) reports the same. The ops that upstream lowers to what the host interpreter runs
// (llvm.intr.memcpy, memrefCopy, llvm.load/store; realloc after --expand-realloc) are checked in that
// form too.
// RUN: split-file --leading-lines %s %t
// DEFINE: %{lower} = %mlir_opt --convert-scf-to-cf --gpu-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-vector-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts

// RUN: not %gpuinterp %t/copy-src.mlir 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: not %gpuinterp --sched=serial %t/copy-src.mlir 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: %{lower} %t/copy-src.mlir > %t/copy-src.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/copy-src.ll.mlir 2>&1 | FileCheck %s --check-prefix=SRC-LL
// RUN: not %gpuinterp %t/copy-dst.mlir 2>&1 | FileCheck %s --check-prefix=DST
// RUN: not %gpuinterp --sched=serial %t/copy-dst.mlir 2>&1 | FileCheck %s --check-prefix=DST
// RUN: %{lower} %t/copy-dst.mlir > %t/copy-dst.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/copy-dst.ll.mlir 2>&1 | FileCheck %s --check-prefix=DST-LL
// RUN: not %gpuinterp --sched=serial %t/copy-strided.mlir 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: %{lower} %t/copy-strided.mlir > %t/copy-strided.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/copy-strided.ll.mlir 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: not %gpuinterp --sched=serial %t/copy-rows.mlir 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %{lower} %t/copy-rows.mlir > %t/copy-rows.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/copy-rows.ll.mlir 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %gpuinterp %t/copy-apart.mlir 2>&1 | FileCheck %s --check-prefix=APART --allow-empty
// RUN: %gpuinterp --sched=serial %t/copy-apart.mlir 2>&1 | FileCheck %s --check-prefix=APART --allow-empty
// RUN: %{lower} %t/copy-apart.mlir > %t/copy-apart.ll.mlir
// RUN: %gpuinterp --sched=serial %t/copy-apart.ll.mlir 2>&1 | FileCheck %s --check-prefix=APART --allow-empty
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/copy-device.mlir 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not %gpuinterp --sched=serial %t/load-store.mlir 2>&1 | FileCheck %s --check-prefix=LS
// RUN: %{lower} %t/load-store.mlir > %t/load-store.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/load-store.ll.mlir 2>&1 | FileCheck %s --check-prefix=LS-LL
// RUN: not %gpuinterp --sched=serial %t/atomics.mlir 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not %gpuinterp %t/atomics.mlir 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not %gpuinterp --sched=serial %t/realloc.mlir 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: %mlir_opt --expand-realloc %t/realloc.mlir | %{lower} > %t/realloc.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/realloc.ll.mlir 2>&1 | FileCheck %s --check-prefix=REALLOC-LL

//--- copy-src.mlir
// The device writes the first half of %h while memref.copy reads all of it.
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<8xi32>
    %o = memref.alloc() : memref<8xi32>
    %lo = memref.subview %h[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    // SRC: copy-src.mlir:[[@LINE+3]]:5: error: data race (read-write): 'memref.copy' ([[@LINE+3]]:5, host) reads and 'gpu.memcpy' ([[@LINE+1]]:11) writes bytes [0, 16) of the host memory allocated by 'memref.alloc' ([[@LINE-6]]:10); nothing orders the two [race]
    %t3 = gpu.memcpy async [%t2] %lo, %d : memref<4xi32, strided<[1]>>, memref<4xi32>
    // SRC-LL: error: data race (read-write): '{{[a-z_.]+}}' ({{[0-9]+}}:5, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+}}:5) writes bytes [0, 16) of the host memory
    memref.copy %h, %o : memref<8xi32> to memref<8xi32>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    memref.dealloc %h : memref<8xi32>
    memref.dealloc %o : memref<8xi32>
    return
  }
}

//--- copy-dst.mlir
// The device reads the first half of %h while memref.copy writes all of it.
module attributes {gpu.container_module} {
  func.func @main() {
    %h = memref.alloc() : memref<8xi32>
    %o = memref.alloc() : memref<8xi32>
    %lo = memref.subview %h[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    // DST: copy-dst.mlir:[[@LINE+3]]:5: error: data race (read-write): 'memref.copy' ([[@LINE+3]]:5, host) writes and 'gpu.memcpy' ([[@LINE+1]]:11) reads bytes [0, 16) of the host memory
    %t2 = gpu.memcpy async [%t1] %d, %lo : memref<4xi32>, memref<4xi32, strided<[1]>>
    // DST-LL: error: data race (read-write): '{{[a-z_.]+}}' ({{[0-9]+}}:5, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+}}:5) reads bytes [0, 16) of the host memory
    memref.copy %o, %h : memref<8xi32> to memref<8xi32>
    %t3 = gpu.dealloc async [%t2] %d : memref<4xi32>
    gpu.wait [%t3]
    memref.dealloc %h : memref<8xi32>
    memref.dealloc %o : memref<8xi32>
    return
  }
}

//--- copy-strided.mlir
// A copy of every other element of %h reads elements 0 and 2 of the half the device writes: two
// races of four bytes each, nothing about bytes [4, 8) or [12, 16).
// STRIDED: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes bytes [0, 4) of the host memory
// STRIDED-NOT: bytes [4, 8)
// STRIDED: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes bytes [8, 12) of the host memory
// STRIDED-NOT: bytes [12, 16)
// STRIDED-NOT: error:
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<8xi32>
    %o = memref.alloc() : memref<4xi32>
    %lo = memref.subview %h[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
    %every = memref.subview %h[0] [4] [2] : memref<8xi32> to memref<4xi32, strided<[2]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %lo, %d : memref<4xi32, strided<[1]>>, memref<4xi32>
    memref.copy %every, %o : memref<4xi32, strided<[2]>> to memref<4xi32>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    memref.dealloc %h : memref<8xi32>
    memref.dealloc %o : memref<4xi32>
    return
  }
}

//--- copy-rows.mlir
// A copy of the 2x2 window at [1, 1] of a 4x4 buffer the device writes: one race per row of the
// window, on each side (in the lowered form, runner utils' memrefCopy, which reports the two
// sides' runs interleaved).
// ROWS-DAG: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes bytes [20, 28) of the host memory
// ROWS-DAG: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes bytes [36, 44) of the host memory
// ROWS-DAG: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) reads bytes [20, 28) of the host memory
// ROWS-DAG: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) reads bytes [36, 44) of the host memory
// ROWS-NOT: error:
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4x4xi32>
    %g = memref.alloc() : memref<4x4xi32>
    %hw = memref.subview %h[1, 1] [2, 2] [1, 1] : memref<4x4xi32> to memref<2x2xi32, strided<[4, 1], offset: 5>>
    %gw = memref.subview %g[1, 1] [2, 2] [1, 1] : memref<4x4xi32> to memref<2x2xi32, strided<[4, 1], offset: 5>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4x4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4x4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4x4xi32>, memref<4x4xi32>
    %e, %t4 = gpu.alloc async [%t3] () : memref<4x4xi32>
    %t5 = gpu.memcpy async [%t4] %e, %g : memref<4x4xi32>, memref<4x4xi32>
    memref.copy %hw, %gw : memref<2x2xi32, strided<[4, 1], offset: 5>> to memref<2x2xi32, strided<[4, 1], offset: 5>>
    %t6 = gpu.dealloc async [%t5] %d : memref<4x4xi32>
    %t7 = gpu.dealloc async [%t6] %e : memref<4x4xi32>
    gpu.wait [%t7]
    memref.dealloc %h : memref<4x4xi32>
    memref.dealloc %g : memref<4x4xi32>
    return
  }
}

//--- copy-apart.mlir
// A copy out of and into the half of %h the device does not touch: no race.
// APART-NOT: error:
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<8xi32>
    %o = memref.alloc() : memref<2xi32>
    %lo = memref.subview %h[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
    %a = memref.subview %h[4] [2] [1] : memref<8xi32> to memref<2xi32, strided<[1], offset: 4>>
    %b = memref.subview %h[6] [2] [1] : memref<8xi32> to memref<2xi32, strided<[1], offset: 6>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %lo, %d : memref<4xi32, strided<[1]>>, memref<4xi32>
    memref.copy %a, %o : memref<2xi32, strided<[1], offset: 4>> to memref<2xi32>
    memref.copy %o, %b : memref<2xi32> to memref<2xi32, strided<[1], offset: 6>>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    memref.dealloc %h : memref<8xi32>
    memref.dealloc %o : memref<2xi32>
    return
  }
}

//--- copy-device.mlir
// memref.copy is host code: out of device memory it is refused, as a memref.load would be.
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    %d = gpu.alloc () : memref<4xi32>
    gpu.memset %d, %v : memref<4xi32>, i32
    // DEVICE: copy-device.mlir:[[@LINE+1]]:5: error: host load of device memory allocated by 'gpu.alloc' ([[@LINE-2]]:10) (bytes [0, 16)); only host-shared memory is visible to the host
    memref.copy %d, %h : memref<4xi32> to memref<4xi32>
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}

//--- load-store.mlir
// A load of element 1 of what one copy writes, and a store to element 5 of what another reads.
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %h = memref.alloc() : memref<8xi32>
    %g = memref.alloc() : memref<8xi32>
    %lo = memref.subview %h[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %lo, %d : memref<4xi32, strided<[1]>>, memref<4xi32>
    %e, %t4 = gpu.alloc async [%t3] () : memref<8xi32>
    %t5 = gpu.memcpy async [%t4] %e, %g : memref<8xi32>, memref<8xi32>
    // LS: load-store.mlir:[[@LINE+2]]:10: error: data race (read-write): 'memref.load' ([[@LINE+2]]:10, host) reads and 'gpu.memcpy' ([[@LINE-3]]:11) writes bytes [4, 8) of the host memory
    // LS-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [4, 8) of the host memory
    %x = memref.load %h[%c1] : memref<8xi32>
    // LS: load-store.mlir:[[@LINE+2]]:5: error: data race (read-write): 'memref.store' ([[@LINE+2]]:5, host) writes and 'gpu.memcpy' ([[@LINE-4]]:11) reads bytes [20, 24) of the host memory
    // LS-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [20, 24) of the host memory
    memref.store %x, %g[%c5] : memref<8xi32>
    %t6 = gpu.dealloc async [%t5] %d : memref<4xi32>
    %t7 = gpu.dealloc async [%t6] %e : memref<8xi32>
    gpu.wait [%t7]
    memref.dealloc %h : memref<8xi32>
    memref.dealloc %g : memref<8xi32>
    return
  }
}

//--- atomics.mlir
// Both atomics read and write their element (reported as a write, which conflicts with either).
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %h = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    // ATOMIC: atomics.mlir:[[@LINE+1]]:10: error: data race (write-write): 'memref.atomic_rmw' ([[@LINE+1]]:10, host) writes and 'gpu.memcpy' ([[@LINE-1]]:11) writes bytes [4, 8) of the host memory
    %a = memref.atomic_rmw addi %v, %h[%c1] : (i32, memref<4xi32>) -> i32
    // ATOMIC: atomics.mlir:[[@LINE+1]]:10: error: data race (write-write): 'memref.generic_atomic_rmw' ([[@LINE+1]]:10, host) writes and 'gpu.memcpy' ([[@LINE-3]]:11) writes bytes [8, 12) of the host memory
    %b = memref.generic_atomic_rmw %h[%c2] : memref<4xi32> {
    ^bb0(%old: i32):
      %n = arith.muli %old, %v : i32
      memref.atomic_yield %n : i32
    }
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    memref.dealloc %h : memref<4xi32>
    return
  }
}

//--- realloc.mlir
// memref.realloc reads the old buffer (a race with the copy writing it) and then frees it (a
// use after free, as any free of memory a device op may still write).
// REALLOC: realloc.mlir:[[@LINE+12]]:10: error: data race (read-write): 'memref.realloc' ([[@LINE+12]]:10, host) reads and 'gpu.memcpy' ([[@LINE+11]]:11) writes bytes [0, 16) of the host memory
// REALLOC: realloc.mlir:[[@LINE+11]]:10: error: use after free
// REALLOC-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [0, 16) of the host memory
// REALLOC-LL: error: use after free
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %r = memref.realloc %h : memref<4xi32> to memref<8xi32>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    memref.dealloc %r : memref<8xi32>
    return
  }
}
