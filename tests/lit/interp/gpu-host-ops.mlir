// Host ops without kernels, high-level and through upstream's lowering: gpu.set_default_device,
// gpu.alloc (sync and async), gpu.memset of i32, f32 and i16 elements,
// gpu.memcpy between device buffers and registered host memory, gpu.host_register and
// gpu.host_unregister, gpu.dealloc (sync and async), and gpu.wait. (Only one chain of tokens:
// upstream's lowering mishandles several.) Ours on the high-level form, ours on the lowered
// form (gpu-async-region makes the synchronous ops async first, as upstream's lowering needs)
// and mlir-runner (with libmgpusim.so) on the lowered form print the same.
// RUN: %gpuinterp %s 2>&1 | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' > %t.ours
// RUN: %gpuinterp --sched=random:5 %s 2>&1 | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: %mlir_opt %s --gpu-async-region --convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir 2> /dev/null | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1,%mgpusim %t.ll.mlir 2> /dev/null | sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' | diff %t.ours -
// RUN: FileCheck %s < %t.ours
// CHECK: [7,  7,  7,  7,  7,  7]
// CHECK: [-1.5,  -1.5,  -1.5,  -1.5,  -1.5,  -1.5]
// CHECK: [-3,  -3,  -3,  -3,  -3,  -3]
// CHECK: [7,  7,  7,  7,  7,  7]
// CHECK-NOT: error
// CHECK-NOT: warning

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %dev = arith.constant 0 : i32
  gpu.set_default_device %dev
  %i7 = arith.constant 7 : i32
  %f = arith.constant -1.5 : f32
  %s = arith.constant -3 : i16

  %h = memref.alloc() : memref<6xi32>
  %hu = memref.cast %h : memref<6xi32> to memref<*xi32>
  gpu.host_register %hu : memref<*xi32>
  %hf = memref.alloc() : memref<6xf32>
  %hfu = memref.cast %hf : memref<6xf32> to memref<*xf32>
  %hs = memref.alloc() : memref<6xi16>

  %d = gpu.alloc () : memref<6xi32>
  gpu.memset %d, %i7 : memref<6xi32>, i32
  gpu.memcpy %h, %d : memref<6xi32>, memref<6xi32>
  call @printMemrefI32(%hu) : (memref<*xi32>) -> ()

  %t0 = gpu.wait async
  %df, %t1 = gpu.alloc async [%t0] () : memref<6xf32>
  %t2 = gpu.memset async [%t1] %df, %f : memref<6xf32>, f32
  %t3 = gpu.memcpy async [%t2] %hf, %df : memref<6xf32>, memref<6xf32>
  %t4 = gpu.dealloc async [%t3] %df : memref<6xf32>
  gpu.wait [%t4]
  %ds = gpu.alloc () : memref<6xi16>
  gpu.memset %ds, %s : memref<6xi16>, i16
  gpu.memcpy %hs, %ds : memref<6xi16>, memref<6xi16>
  gpu.dealloc %ds : memref<6xi16>
  call @printMemrefF32(%hfu) : (memref<*xf32>) -> ()
  // upstream's runner utils have no printMemrefI16: widen on the host
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n6 = arith.constant 6 : index
  %wide = memref.alloc() : memref<6xi32>
  scf.for %i = %c0 to %n6 step %c1 {
    %v = memref.load %hs[%i] : memref<6xi16>
    %w = arith.extsi %v : i16 to i32
    memref.store %w, %wide[%i] : memref<6xi32>
  }
  %wu = memref.cast %wide : memref<6xi32> to memref<*xi32>
  call @printMemrefI32(%wu) : (memref<*xi32>) -> ()
  memref.dealloc %wide : memref<6xi32>

  %d2 = gpu.alloc () : memref<6xi32>
  gpu.memcpy %d2, %d : memref<6xi32>, memref<6xi32>
  gpu.memcpy %h, %d2 : memref<6xi32>, memref<6xi32>
  gpu.host_unregister %hu : memref<*xi32>
  call @printMemrefI32(%hu) : (memref<*xi32>) -> ()

  gpu.dealloc %d : memref<6xi32>
  gpu.dealloc %d2 : memref<6xi32>
  memref.dealloc %h : memref<6xi32>
  memref.dealloc %hf : memref<6xf32>
  memref.dealloc %hs : memref<6xi16>
  return
}
