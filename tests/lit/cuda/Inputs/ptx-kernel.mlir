// A gpu.binary holding PTX, launched with one memref and one i32 (kernels.test): each thread
// writes 42 plus its index, and the host prints what the kernel wrote.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "//\0A.version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry my_kernel(\0A\09.param .u64 my_kernel_param_0,\0A\09.param .u64 my_kernel_param_1,\0A\09.param .u64 my_kernel_param_2,\0A\09.param .u64 my_kernel_param_3,\0A\09.param .u64 my_kernel_param_4,\0A\09.param .u32 my_kernel_param_5\0A)\0A{\0A\09.reg .b32 %r<4>;\0A\09.reg .b64 %rd<5>;\0A\09ld.param.u64 %rd1, [my_kernel_param_1];\0A\09ld.param.u32 %r1, [my_kernel_param_5];\0A\09mov.u32 %r2, %tid.x;\0A\09add.s32 %r3, %r1, %r2;\0A\09cvta.to.global.u64 %rd2, %rd1;\0A\09mul.wide.u32 %rd3, %r2, 4;\0A\09add.s64 %rd4, %rd2, %rd3;\0A\09st.global.u32 [%rd4], %r3;\0A\09ret;\0A}\0A">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 42 : i32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<32xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@my_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xi32>, %n : i32)
    %h = memref.alloc() : memref<32xi32>
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<32xi32>, memref<32xi32>
    %t4 = gpu.dealloc async [%t3] %d : memref<32xi32>
    gpu.wait [%t4]
    vector.print str "after the launch\n"
    %u = memref.cast %h : memref<32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<32xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
