// A gpu.binary holding PTX, launched with one memref and one i32 (kernels.test).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "//\0A.version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry my_kernel(\0A\09.param .u64 my_kernel_param_0,\0A\09.param .u64 my_kernel_param_1,\0A\09.param .u64 my_kernel_param_2,\0A\09.param .u64 my_kernel_param_3,\0A\09.param .u64 my_kernel_param_4,\0A\09.param .u32 my_kernel_param_5\0A)\0A{\0A\09ret;\0A}\0A">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 42 : i32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<32xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@my_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xf32>, %n : i32)
    %t3 = gpu.dealloc async [%t2] %d : memref<32xf32>
    gpu.wait [%t3]
    vector.print str "after the launch\n"
    return
  }
}
