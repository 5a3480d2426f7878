// `gpu.dealloc async [%t]` is ordered after %t only. The sim waits for %t before it frees the
// memory, but that wait is not the program's: the host, and the ops it submits later, must not
// become ordered after %t, or their races with what %t waited for go unseen. Each case has such a
// dealloc before the racing pair; without it each race was always reported.
// RUN: split-file --leading-lines %s %t
// RUN: not %gpuinterp --sched=serial %t/free-write.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %gpuinterp --sched=random:3 %t/free-write.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %gpuinterp %t/free-write.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %gpuinterp --sched=serial %t/read-write.mlir 2>&1 | FileCheck %s --check-prefix=RW
// RUN: not %gpuinterp --sched=random:3 %t/read-write.mlir 2>&1 | FileCheck %s --check-prefix=RW
// RUN: not %gpuinterp --sched=serial %t/write-write.mlir 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not %gpuinterp --sched=serial %t/kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not %gpuinterp --sched=random:3 %t/kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not %gpuinterp %t/kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// A kernel the free does not wait for reads the memory after it is gone (the random schedule
// runs it last under seed 19): the use of freed memory is this schedule's witness, and the race
// is reported all the same.
// RUN: not %gpuinterp --sched=random:19 %t/kernel-after-free.mlir 2>&1 | FileCheck %s --check-prefixes=LATE,WITNESS
// RUN: not %gpuinterp --sched=serial %t/kernel-after-free.mlir 2>&1 | FileCheck %s --check-prefix=LATE
// The same programs with the dependency they lack are clean.
// RUN: %gpuinterp --sched=serial %t/ordered.mlir 2>&1 | count 0
// RUN: %gpuinterp --sched=random:3 %t/ordered.mlir 2>&1 | count 0
// RUN: %gpuinterp %t/ordered.mlir 2>&1 | count 0

//--- free-write.mlir
// %t4 frees %d after %t1 only, while %t2 writes %d.
// FREE: free-write.mlir:[[@LINE+9]]:11: error: use after free: 'gpu.dealloc' ([[@LINE+9]]:11) frees the device memory allocated by 'gpu.alloc' ([[@LINE+5]]:15) while 'gpu.memset' ([[@LINE+6]]:11) may still write bytes [0, 16) of it; nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 1 : i32
    %e, %t0 = gpu.alloc async () : memref<4xi32>
    %d, %t1 = gpu.alloc async () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.wait async [%t2]
    %t5 = gpu.dealloc async [%t3] %e : memref<4xi32>
    %t4 = gpu.dealloc async [%t1] %d : memref<4xi32>
    gpu.wait [%t5, %t4]
    return
  }
}

//--- read-write.mlir
// %t6 reads %h, which %t2 writes; only the dealloc of %e waited for %t2.
// RW: error: data race (read-write): 'gpu.memcpy' ([[@LINE+12]]:11) reads and 'gpu.memcpy' ([[@LINE+9]]:11) writes bytes [0, 16) of the host memory allocated by 'memref.alloc' ([[@LINE+4]]:10); nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 1 : i32
    %h = memref.alloc() : memref<4xi32>
    %e, %t0 = gpu.alloc async () : memref<4xi32>
    %d, %t1 = gpu.alloc async () : memref<4xi32>
    %g, %t8 = gpu.alloc async () : memref<4xi32>
    %t7 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t2 = gpu.memcpy async [%t7] %h, %d : memref<4xi32>, memref<4xi32>
    %t3 = gpu.wait async [%t2]
    %t5 = gpu.dealloc async [%t3] %e : memref<4xi32>
    %t6 = gpu.memcpy async [%t8] %g, %h : memref<4xi32>, memref<4xi32>
    gpu.wait [%t5, %t6, %t2]
    gpu.dealloc %d : memref<4xi32>
    gpu.dealloc %g : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}

//--- write-write.mlir
// %t6 and %t2 both write %d; only the dealloc of %e waited for %t2.
// WW: error: data race (write-write): 'gpu.memset' ([[@LINE+10]]:11) writes and 'gpu.memset' ([[@LINE+7]]:11) writes bytes [0, 16) of the device memory allocated by 'gpu.alloc' ([[@LINE+6]]:15); nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 1 : i32
    %w = arith.constant 2 : i32
    %e, %t0 = gpu.alloc async () : memref<4xi32>
    %d, %t1 = gpu.alloc async () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.wait async [%t2]
    %t5 = gpu.dealloc async [%t3] %e : memref<4xi32>
    %t6 = gpu.memset async [%t1] %d, %w : memref<4xi32>, i32
    gpu.wait [%t5, %t6, %t2]
    gpu.dealloc %d : memref<4xi32>
    return
  }
}

//--- kernel.mlir
// The kernel %t2 writes %d and %t6 copies %d out; only the dealloc of %e waited for the kernel.
// KERNEL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) {{reads|writes}} and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) {{reads|writes}} bytes [0, 16) of the device memory allocated by 'gpu.alloc' ([[@LINE+15]]:15); nothing orders the two [race]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4xi32>, %v: i32) kernel {
      %tx = gpu.thread_id x
      memref.store %v, %m[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = arith.constant 1 : i32
    %h = memref.alloc() : memref<4xi32>
    %e, %t0 = gpu.alloc async () : memref<4xi32>
    %d, %t1 = gpu.alloc async () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %v : i32)
    %t3 = gpu.wait async [%t2]
    %t5 = gpu.dealloc async [%t3] %e : memref<4xi32>
    %t6 = gpu.memcpy async [%t1] %h, %d : memref<4xi32>, memref<4xi32>
    gpu.wait [%t5, %t6, %t2]
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}

//--- kernel-after-free.mlir
// The kernel %t2 reads %d; %t4 frees %d after %t1 only.
// WITNESS: error: kernel load: use after free: bytes [0, 16) of the device memory allocated by 'gpu.alloc' ([[@LINE+17]]:15) and freed by 'gpu.dealloc' ([[@LINE+21]]:11) [misuse]
// LATE: error: use after free: 'gpu.dealloc' ([[@LINE+20]]:11) frees the device memory allocated by 'gpu.alloc' ([[@LINE+16]]:15) while 'gpu.launch_func' @k::@copy ([[@LINE+18]]:11) may still read bytes [0, 16) of it; nothing orders the two [race]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%m: memref<4xi32>, %o: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %x = memref.load %m[%tx] : memref<4xi32>
      memref.store %x, %o[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = arith.constant 1 : i32
    %o, %t0 = gpu.alloc async () : memref<4xi32>
    %t00 = gpu.memset async [%t0] %o, %v : memref<4xi32>, i32
    %d, %t1 = gpu.alloc async [%t00] () : memref<4xi32>
    %t11 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t2 = gpu.launch_func async [%t11] @k::@copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %o : memref<4xi32>)
    %t3 = gpu.wait async [%t11]
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4, %t2]
    gpu.dealloc %o : memref<4xi32>
    return
  }
}

//--- ordered.mlir
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 1 : i32
    %h = memref.alloc() : memref<4xi32>
    %e, %t0 = gpu.alloc async () : memref<4xi32>
    %d, %t1 = gpu.alloc async () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<4xi32>, i32
    %t3 = gpu.wait async [%t2]
    %t5 = gpu.dealloc async [%t3] %e : memref<4xi32>
    %t6 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %t4 = gpu.dealloc async [%t6] %d : memref<4xi32>
    gpu.wait [%t5, %t4]
    memref.dealloc %h : memref<4xi32>
    return
  }
}
