// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// A host program with device memory but no kernel: allocate on the
// device, fill with memset, copy host->device->device->host through a
// chain of async tokens, wait, print, free. The input of the "copy-only"
// lowered programs (tests/corpus-tools/gen-lowered.sh).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %seven = arith.constant 7.0 : f32
  %host = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %host[%i] : memref<8xf32>
  }
  %t0 = gpu.wait async
  %a, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
  %b, %t2 = gpu.alloc async [%t1] () : memref<8xf32>
  %t3 = gpu.memset async [%t2] %b, %seven : memref<8xf32>, f32
  %t4 = gpu.memcpy async [%t3] %a, %host : memref<8xf32>, memref<8xf32>
  %t5 = gpu.memcpy async [%t4] %b, %a : memref<8xf32>, memref<8xf32>
  %t6 = gpu.memcpy async [%t5] %out, %b : memref<8xf32>, memref<8xf32>
  %t7 = gpu.dealloc async [%t6] %a : memref<8xf32>
  %t8 = gpu.dealloc async [%t7] %b : memref<8xf32>
  gpu.wait [%t8]
  %any = memref.cast %out : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%any) : (memref<*xf32>) -> ()
  memref.dealloc %host : memref<8xf32>
  memref.dealloc %out : memref<8xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
