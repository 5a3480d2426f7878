// Races the token graph leaves open, each reported with both ops: two kernels on the same buffer
// that only share an ancestor (lines 26, 27), and a copy out of that buffer ordered after one of
// them only (line 29). Which op of a pair is named first depends on the schedule.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// CHECK-DAG: error: data race (write-write): 'gpu.launch_func' @k::@fill ({{26|27}}:10) writes and 'gpu.launch_func' @k::@fill ({{26|27}}:10) writes bytes [0, 128) of the device memory allocated by 'gpu.alloc' (24:10); nothing orders the two [race]
// CHECK-DAG: error: data race (read-write): {{'gpu.launch_func' @k::@fill \(27:10\) writes and 'gpu.memcpy' \(29:10\) reads|'gpu.memcpy' \(29:10\) reads and 'gpu.launch_func' @k::@fill \(27:10\) writes}} bytes [0, 128) of the device memory allocated by 'gpu.alloc' (24:10); nothing orders the two [race]
// A copy that overlaps half of a kernel's writes: only those bytes race.
// CHECK-DAG: error: data race (write-write): {{'gpu.launch_func' @k::@fill \(34:10\) writes and 'gpu.memcpy' \(35:10\) writes|'gpu.memcpy' \(35:10\) writes and 'gpu.launch_func' @k::@fill \(34:10\) writes}} bytes [64, 128) of the device memory allocated by 'gpu.alloc' (31:10); nothing orders the two [race]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<32xi32>, %v: i32) kernel {
      %tx = gpu.thread_id x
      memref.store %v, %m[%tx] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %m = gpu.alloc () : memref<32xi32>
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %one : i32)
    %b = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %two : i32)
    %h = memref.alloc() : memref<32xi32>
    %c = gpu.memcpy async [%a] %h, %m : memref<32xi32>, memref<32xi32>
    gpu.wait [%b, %c]
    %n = gpu.alloc () : memref<32xi32>
    %hv = memref.subview %h[16] [16] [1] : memref<32xi32> to memref<16xi32, strided<[1], offset: 16>>
    %nv = memref.subview %n[16] [16] [1] : memref<32xi32> to memref<16xi32, strided<[1], offset: 16>>
    %d = gpu.launch_func async @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%n : memref<32xi32>, %one : i32)
    %e = gpu.memcpy async %nv, %hv : memref<16xi32, strided<[1], offset: 16>>, memref<16xi32, strided<[1], offset: 16>>
    gpu.wait [%d, %e]
    gpu.dealloc %m : memref<32xi32>
    gpu.dealloc %n : memref<32xi32>
    return
  }
}
