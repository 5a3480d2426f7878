// launch-ptx.mlir with an index where the kernel reads a .u32 (launch-ptx.test).
// The launch at line 17 passes %c7 (8 bytes) as parameter 7, which the PTX declares .u32;
// nothing may reach the driver.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "//\0A.version 7.0\0A.target sm_70\0A.address_size 64\0A.visible .entry scale(\0A\09.param .u64 scale_param_0,\0A\09.param .u64 scale_param_1,\0A\09.param .u64 scale_param_2,\0A\09.param .u64 scale_param_3,\0A\09.param .u64 scale_param_4,\0A\09.param .u64 scale_param_5,\0A\09.param .u64 scale_param_6,\0A\09.param .u32 scale_param_7,\0A\09.param .f32 scale_param_8,\0A\09.param .u64 scale_param_9,\0A\09.param .u16 scale_param_10\0A)\0A{\0A\09ret;\0A}\0A.visible .entry touch(\0A\09.param .u64 .ptr .align 1 touch_param_0\0A)\0A{\0A\09ret;\0A}\0A">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : index
    %n = arith.constant 42 : i32
    %f = arith.constant 1.5 : f32
    %h = arith.constant -1 : i16
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<2x8xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c8, %c2, %c1) args(%d : memref<2x8xf32>, %c7 : index, %f : f32, %c7 : index, %h : i16)
    %t3 = gpu.launch_func async [%t2] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<2x8xf32>, %n : i32, %f : f32, %c1 : index, %h : i16)
    gpu.wait [%t3]
    %p = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @kernels::@touch blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    gpu.dealloc %d : memref<2x8xf32>
    vector.print str "done\n"
    return
  }
}
