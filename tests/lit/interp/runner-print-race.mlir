// The runner utils read host memory as memref.load does: each read is checked against the device
// ops that may still write it, at the call's location, so printing or verifying a buffer that an
// un-awaited gpu.memcpy writes is a race (exit 1), and printing device memory is refused.
// RUN: split-file --leading-lines %s %t
// RUN: not %gpuinterp --sched=serial %t/print.mlir 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not %gpuinterp --sched=random:3 %t/print.mlir 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not %gpuinterp %t/print.mlir 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not %gpuinterp --sched=serial %t/verify.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not %gpuinterp --sched=serial %t/strided.mlir 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: not %gpuinterp --sched=serial %t/device.mlir 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: %gpuinterp --sched=serial %t/waited.mlir 2>&1 | FileCheck %s --check-prefix=WAITED

//--- print.mlir
// PRINT: print.mlir:[[@LINE+10]]:5: error: data race (read-write): 'func.call' @printMemrefI32 ([[@LINE+10]]:5, host) reads and 'gpu.memcpy' ([[@LINE+8]]:11) writes bytes [0, 16) of the host memory allocated by 'memref.alloc' ([[@LINE+5]]:10); nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    %d, %t0 = gpu.alloc async () : memref<4xi32>
    %t1 = gpu.memset async [%t0] %d, %v : memref<4xi32>, i32
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xi32>, memref<4xi32>
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.wait [%t2]
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}

//--- verify.mlir
// The expected buffer is the one a copy still writes.
// VERIFY: verify.mlir:[[@LINE+18]]:10: error: data race (read-write): 'func.call' @verifyMemRefI32 ([[@LINE+18]]:10, host) reads and 'gpu.memcpy' ([[@LINE+15]]:11) writes bytes [0, 16) of the host memory allocated by 'memref.alloc' ([[@LINE+8]]:10); nothing orders the two [race]
module attributes {gpu.container_module} {
  func.func private @verifyMemRefI32(memref<*xi32>, memref<*xi32>) -> i64
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    %a = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %v, %a[%i] : memref<4xi32>
    }
    %d, %t0 = gpu.alloc async () : memref<4xi32>
    %t1 = gpu.memset async [%t0] %d, %v : memref<4xi32>, i32
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xi32>, memref<4xi32>
    %ua = memref.cast %a : memref<4xi32> to memref<*xi32>
    %uh = memref.cast %h : memref<4xi32> to memref<*xi32>
    %n = call @verifyMemRefI32(%ua, %uh) : (memref<*xi32>, memref<*xi32>) -> i64
    gpu.wait [%t2]
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    memref.dealloc %a : memref<4xi32>
    return
  }
}

//--- strided.mlir
// A print of every other element of a buffer a copy writes half of: only the bytes it reads race.
// STRIDED: error: data race (read-write): 'func.call' @printMemrefI32 ([[@LINE+13]]:5, host) reads and 'gpu.memcpy' ([[@LINE+11]]:11) writes bytes [16, 20) of the host memory
// STRIDED-NOT: bytes [0, 4)
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<8xi32>
    %hv = memref.subview %h[4] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
    %every = memref.subview %h[0] [4] [2] : memref<8xi32> to memref<4xi32, strided<[2]>>
    %d, %t0 = gpu.alloc async () : memref<4xi32>
    %t1 = gpu.memset async [%t0] %d, %v : memref<4xi32>, i32
    %t2 = gpu.memcpy async [%t1] %hv, %d : memref<4xi32, strided<[1], offset: 4>>, memref<4xi32>
    %u = memref.cast %every : memref<4xi32, strided<[2]>> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.wait [%t2]
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<8xi32>
    return
  }
}

//--- device.mlir
// DEVICE: device.mlir:[[@LINE+8]]:5: error: host load of device memory allocated by 'gpu.alloc' ([[@LINE+5]]:10) (bytes [0, 16)); only host-shared memory is visible to the host
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %v = arith.constant 7 : i32
    %d = gpu.alloc () : memref<4xi32>
    gpu.memset %d, %v : memref<4xi32>, i32
    %u = memref.cast %d : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4xi32>
    return
  }
}

//--- waited.mlir
// WAITED-NOT: error:
// WAITED: [7,  7,  7,  7]
// WAITED-NOT: error:
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %v = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    %d, %t0 = gpu.alloc async () : memref<4xi32>
    %t1 = gpu.memset async [%t0] %d, %v : memref<4xi32>, i32
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xi32>, memref<4xi32>
    gpu.wait [%t2]
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4xi32>
    memref.dealloc %h : memref<4xi32>
    return
  }
}
