// Host vector memory ops against device copies nobody waited for: each op reports its race once
// per run of adjacent elements it touches, with exactly those bytes; lanes it does not touch
// (masked off, outside the copy) report nothing. One copy writes the first half of %h, another
// reads the first half of %g. The serial scheduler reports the same. vector.load, vector.store and
// in-bounds transfers lower to llvm.load and llvm.store, which are checked in that form too.
// RUN: split-file --leading-lines %s %t
// DEFINE: %{lower} = %mlir_opt --convert-scf-to-cf --gpu-to-llvm --expand-strided-metadata --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts
// RUN: not %gpuinterp %t/all.mlir 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not %gpuinterp --sched=serial %t/all.mlir 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not %gpuinterp --sched=serial %t/plain.mlir 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %{lower} %t/plain.mlir > %t/plain.ll.mlir
// RUN: not %gpuinterp --sched=serial %t/plain.ll.mlir 2>&1 | FileCheck %s --check-prefix=PLAIN-LL

//--- all.mlir
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+46]]:10: error: data race (read-write): 'vector.load' ([[@LINE+46]]:10, host) reads and 'gpu.memcpy' ([[@LINE+43]]:11) writes bytes [8, 24) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+45]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+43]]:11) reads bytes [24, 32) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+44]]:10: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+39]]:11) writes bytes [24, 32) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+43]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+39]]:11) reads bytes [4, 20) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+43]]:11: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+35]]:11) writes bytes [0, 4) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+41]]:11: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+33]]:11) writes bytes [8, 12) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+41]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+33]]:11) reads bytes [20, 28) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+42]]:11: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+29]]:11) writes bytes [28, 32) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+40]]:11: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+27]]:11) writes bytes [4, 8) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+41]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+27]]:11) reads bytes [12, 16) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+39]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+25]]:11) reads bytes [8, 12) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+39]]:11: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+21]]:11) writes bytes [24, 32) of the host memory
// ALL-NOT: error:
// ALL: all.mlir:[[@LINE+38]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+21]]:11) reads bytes [28, 32) of the host memory
// ALL-NOT: error:
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<16xf32>
    %g = memref.alloc() : memref<16xf32>
    %hlo = memref.subview %h[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
    %glo = memref.subview %g[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<8xf32>, f32
    %t3 = gpu.memcpy async [%t2] %hlo, %d : memref<8xf32, strided<[1]>>, memref<8xf32>
    %e, %t4 = gpu.alloc async [%t3] () : memref<8xf32>
    %t5 = gpu.memcpy async [%t4] %e, %glo : memref<8xf32>, memref<8xf32, strided<[1]>>
    %a = vector.load %h[%c2] : memref<16xf32>, vector<4xf32>
    vector.store %a, %g[%c6] : memref<16xf32>, vector<4xf32>
    %b = vector.transfer_read %h[%c6], %v : memref<16xf32>, vector<4xf32>
    vector.transfer_write %b, %g[%c1] {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
    %m1 = arith.constant dense<[true, false, true, false]> : vector<4xi1>
    %ml = vector.maskedload %h[%c0], %m1, %a : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %m2 = arith.constant dense<[false, true, true, false]> : vector<4xi1>
    vector.maskedstore %g[%c4], %m2, %a : memref<16xf32>, vector<4xi1>, vector<4xf32>
    %gi = arith.constant dense<[9, 7, 1, 12]> : vector<4xi32>
    %all = arith.constant dense<true> : vector<4xi1>
    %ga = vector.gather %h[%c0][%gi], %all, %a : memref<16xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %si = arith.constant dense<[3, 10, 2, 15]> : vector<4xi32>
    %m3 = arith.constant dense<[true, true, true, false]> : vector<4xi1>
    vector.scatter %g[%c0][%si], %m3, %a : memref<16xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
    %m4 = arith.constant dense<[true, true, true, false]> : vector<4xi1>
    %ex = vector.expandload %h[%c6], %m4, %a : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    vector.compressstore %g[%c7], %m1, %a : memref<16xf32>, vector<4xi1>, vector<4xf32>
    // The halves no copy touches.
    %far = vector.load %h[%c8] : memref<16xf32>, vector<8xf32>
    vector.store %far, %g[%c8] : memref<16xf32>, vector<8xf32>
    %t6 = gpu.dealloc async [%t5] %d : memref<8xf32>
    %t7 = gpu.dealloc async [%t6] %e : memref<8xf32>
    gpu.wait [%t7]
    vector.print %ml : vector<4xf32>
    vector.print %ga : vector<4xf32>
    vector.print %ex : vector<4xf32>
    memref.dealloc %h : memref<16xf32>
    memref.dealloc %g : memref<16xf32>
    return
  }
}

//--- plain.mlir
// PLAIN: plain.mlir:[[@LINE+26]]:10: error: data race (read-write): 'vector.load' ([[@LINE+26]]:10, host) reads and 'gpu.memcpy' ([[@LINE+23]]:11) writes bytes [8, 24) of the host memory
// PLAIN: plain.mlir:[[@LINE+26]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+24]]:11) reads bytes [24, 32) of the host memory
// PLAIN: plain.mlir:[[@LINE+26]]:10: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'gpu.memcpy' ([[@LINE+21]]:11) writes bytes [24, 32) of the host memory
// PLAIN: plain.mlir:[[@LINE+26]]:5: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'gpu.memcpy' ([[@LINE+22]]:11) reads bytes [4, 20) of the host memory
// PLAIN-NOT: error:
// PLAIN-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [8, 24) of the host memory
// PLAIN-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [24, 32) of the host memory
// PLAIN-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) reads and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) writes bytes [24, 32) of the host memory
// PLAIN-LL: error: data race (read-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}, host) writes and 'llvm.call' @mgpuMemcpy ({{[0-9]+:[0-9]+}}) reads bytes [4, 20) of the host memory
// PLAIN-LL-NOT: error:
module attributes {gpu.container_module} {
  func.func @main() {
    %v = arith.constant 7.0 : f32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %h = memref.alloc() : memref<16xf32>
    %g = memref.alloc() : memref<16xf32>
    %hlo = memref.subview %h[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
    %glo = memref.subview %g[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<8xf32>, f32
    %t3 = gpu.memcpy async [%t2] %hlo, %d : memref<8xf32, strided<[1]>>, memref<8xf32>
    %e, %t4 = gpu.alloc async [%t3] () : memref<8xf32>
    %t5 = gpu.memcpy async [%t4] %e, %glo : memref<8xf32>, memref<8xf32, strided<[1]>>
    %a = vector.load %h[%c2] : memref<16xf32>, vector<4xf32>
    vector.store %a, %g[%c6] : memref<16xf32>, vector<4xf32>
    %b = vector.transfer_read %h[%c6], %v {in_bounds = [true]} : memref<16xf32>, vector<4xf32>
    vector.transfer_write %b, %g[%c1] {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
    %t6 = gpu.dealloc async [%t5] %d : memref<8xf32>
    %t7 = gpu.dealloc async [%t6] %e : memref<8xf32>
    gpu.wait [%t7]
    memref.dealloc %h : memref<16xf32>
    memref.dealloc %g : memref<16xf32>
    return
  }
}
