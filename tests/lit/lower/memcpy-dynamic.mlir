// REQUIRES: lowering
// The byte count of a copy of a dynamically shaped memref is the element size times the product
// of its sizes, read from the source at run time: here memref<?xf64> and the 2-D memref<?x?xf32>
// (MLIR 22 multiplies the descriptor's sizes, then scales by the element size with a
// getelementptr on null). The arithmetic differs between the two lowerings, so the count is
// checked by running: a short count leaves device memory uninitialized (an error) or host rows
// unchanged, a long one runs past the allocation.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %gpuinterp %t.mlir 2>&1 | FileCheck --check-prefix=OUT %s
// RUN: %mlir_opt %s --gpu-to-llvm | %gpuinterp - 2>&1 | FileCheck --check-prefix=OUT %s

// OUT:      [0.5,  0.5,  0.5,  0.5,  0.5]
// OUT:      {{\[}}[1.5,   1.5,   1.5,   1.5,   1.5],
// OUT-NEXT:  [1.5,   1.5,   1.5,   1.5,   1.5],
// OUT-NEXT:  [1.5,   1.5,   1.5,   1.5,   1.5]]
// OUT-NOT: error

module attributes {gpu.container_module} {
  // CHECK-LABEL: @copy_vec
  // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  func.func @copy_vec(%src: memref<?xf64>, %dst: memref<?xf64>, %n: index) {
    %s = gpu.wait async
    %dev, %a = gpu.alloc async [%s] (%n) : memref<?xf64>
    %b = gpu.memcpy async [%a] %dev, %src : memref<?xf64>, memref<?xf64>
    %c = gpu.memcpy async [%b] %dst, %dev : memref<?xf64>, memref<?xf64>
    %d = gpu.dealloc async [%c] %dev : memref<?xf64>
    gpu.wait [%d]
    return
  }

  // CHECK-LABEL: @copy_grid
  // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}})
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
  func.func @copy_grid(%host: memref<?x?xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %host, %c0 : memref<?x?xf32>
    %cols = memref.dim %host, %c1 : memref<?x?xf32>
    %s = gpu.wait async
    %dev, %a = gpu.alloc async [%s] (%rows, %cols) : memref<?x?xf32>
    %b = gpu.memset async [%a] %dev, %v : memref<?x?xf32>, f32
    %c = gpu.memcpy async [%b] %host, %dev : memref<?x?xf32>, memref<?x?xf32>
    %d = gpu.dealloc async [%c] %dev : memref<?x?xf32>
    gpu.wait [%d]
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %half = arith.constant 0.5 : f64
    %zero = arith.constant 0.0 : f32
    %fill = arith.constant 1.5 : f32
    %zero64 = arith.constant 0.0 : f64
    %vec = memref.alloc(%c5) : memref<?xf64>
    %out = memref.alloc(%c5) : memref<?xf64>
    scf.for %i = %c0 to %c5 step %c1 {
      memref.store %half, %vec[%i] : memref<?xf64>
      memref.store %zero64, %out[%i] : memref<?xf64>
    }
    call @copy_vec(%vec, %out, %c5) : (memref<?xf64>, memref<?xf64>, index) -> ()
    %pv = memref.cast %out : memref<?xf64> to memref<*xf64>
    call @printMemrefF64(%pv) : (memref<*xf64>) -> ()
    %grid = memref.alloc(%c3, %c5) : memref<?x?xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        memref.store %zero, %grid[%i, %j] : memref<?x?xf32>
      }
    }
    call @copy_grid(%grid, %fill) : (memref<?x?xf32>, f32) -> ()
    %pg = memref.cast %grid : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%pg) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF64(memref<*xf64>)
  func.func private @printMemrefF32(memref<*xf32>)
}
