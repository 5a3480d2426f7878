// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/shuffle.mlir: each lane
// of a block of 13 threads takes the value of its xor-partner with a
// shuffle width smaller than the block; lanes whose partner is out of
// range keep a marker, chosen with cf.cond_br on the valid flag inside the
// launch region (so the region has several blocks).

func.func @main() {
  %data = memref.alloc() : memref<13xf32>
  %any = memref.cast %data : memref<13xf32> to memref<*xf32>
  gpu.host_register %any : memref<*xf32>
  %one = arith.constant 1 : index
  %lanes = arith.constant 13 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %lanes, %sy = %one, %sz = %one) {
    %t = arith.index_cast %tx : index to i32
    %val = arith.sitofp %t : i32 to f32
    %width = arith.index_cast %sx : index to i32
    %offset = arith.constant 4 : i32
    %shfl, %valid = gpu.shuffle xor %val, %offset, %width : f32
    cf.cond_br %valid, ^bb1(%shfl : f32), ^bb0
  ^bb0:
    %m1 = arith.constant -1.0 : f32
    cf.br ^bb1(%m1 : f32)
  ^bb1(%value : f32):
    memref.store %value, %data[%tx] : memref<13xf32>
    gpu.terminator
  }
  call @printMemrefF32(%any) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
