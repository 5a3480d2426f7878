// A lowered file that copies back half the bytes: the output and the buffer differ, each with
// the schedule that shows it.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: %gpuinterp --diff %s --against %t.ll.mlir 2>&1 | count 0
// RUN: %python -c "import re,sys; t=open(sys.argv[1]).read(); L=t.split('\n'); i=[k for k,l in enumerate(L) if 'llvm.call @mgpuMemcpy' in l][1]; j=max(k for k in range(i) if 'llvm.mlir.constant(4 : index)' in L[k]); L[j]=L[j].replace('(4 : index)','(2 : index)'); open(sys.argv[2],'w').write('\n'.join(L))" %t.ll.mlir %t.bad.mlir
// RUN: not %gpuinterp --diff %s --against %t.bad.mlir 2> %t.err | count 0
// RUN: FileCheck %s < %t.err

// CHECK: wrong-size.mlir:[[#@LINE+9]]:1: error: the lowered program's output differs from the program's at line 2: '[0,  1,  0,  0]' instead of '[0,  1,  2,  3]'
// CHECK-NEXT: func.func @main() {
// CHECK-NEXT: ^
// CHECK-NEXT: note: witness: --sched=serial
// CHECK: wrong-size.mlir:[[#@LINE+10]]:11: error: the final contents of the buffer allocated here by 'memref.alloc' (occurrence 1) differ: byte 11 is 0x40 in the program and 0x00 in the lowered program
// CHECK-NEXT: %back = memref.alloc()
// CHECK-NEXT: ^
// CHECK-NEXT: note: witness: --sched=serial

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %host = memref.alloc() : memref<4xf32>
  %back = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %host[%i] : memref<4xf32>
  }
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %t2 = gpu.memcpy async [%t1] %dev, %host : memref<4xf32>, memref<4xf32>
  %t3 = gpu.memcpy async [%t2] %back, %dev : memref<4xf32>, memref<4xf32>
  %t4 = gpu.dealloc async [%t3] %dev : memref<4xf32>
  gpu.wait [%t4]
  %u = memref.cast %back : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %host : memref<4xf32>
  memref.dealloc %back : memref<4xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
