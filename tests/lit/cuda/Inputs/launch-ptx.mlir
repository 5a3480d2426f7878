// A gpu.binary of PTX with two kernels, launched by gpuinterp on the cuda backend (launch-ptx.test): a 2-D memref
// (7 descriptor fields), i32, f32, index and i16 arguments, an !llvm.ptr, two chained async launches and a synchronous one, one
// module load for all. @scale: each thread of tid.y 0 writes element (ctaid.x, tid.x), e by the strides, as (n + e) * f + x + h.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "//\0A.version 7.0\0A.target sm_70\0A.address_size 64\0A.visible .entry scale(\0A\09.param .u64 scale_param_0,\0A\09.param .u64 scale_param_1,\0A\09.param .u64 scale_param_2,\0A\09.param .u64 scale_param_3,\0A\09.param .u64 scale_param_4,\0A\09.param .u64 scale_param_5,\0A\09.param .u64 scale_param_6,\0A\09.param .u32 scale_param_7,\0A\09.param .f32 scale_param_8,\0A\09.param .u64 scale_param_9,\0A\09.param .u16 scale_param_10\0A)\0A{\0A\09.reg .pred %p<2>;\0A\09.reg .b16 %rs<2>;\0A\09.reg .b32 %r<7>;\0A\09.reg .f32 %f<6>;\0A\09.reg .b64 %rd<10>;\0A\09mov.u32 %r1, %tid.y;\0A\09setp.ne.u32 %p1, %r1, 0;\0A\09@%p1 bra $L_done;\0A\09ld.param.u64 %rd1, [scale_param_1];\0A\09ld.param.u64 %rd2, [scale_param_2];\0A\09ld.param.u64 %rd3, [scale_param_5];\0A\09ld.param.u64 %rd4, [scale_param_6];\0A\09ld.param.u32 %r2, [scale_param_7];\0A\09ld.param.f32 %f1, [scale_param_8];\0A\09ld.param.u64 %rd5, [scale_param_9];\0A\09ld.param.u16 %rs1, [scale_param_10];\0A\09mov.u32 %r3, %ctaid.x;\0A\09mov.u32 %r4, %tid.x;\0A\09cvt.u64.u32 %rd6, %r3;\0A\09cvt.u64.u32 %rd7, %r4;\0A\09mul.lo.s64 %rd6, %rd6, %rd3;\0A\09mad.lo.s64 %rd6, %rd7, %rd4, %rd6;\0A\09cvt.u32.u64 %r5, %rd6;\0A\09add.s32 %r6, %r2, %r5;\0A\09cvt.rn.f32.u32 %f2, %r6;\0A\09cvt.rn.f32.u64 %f3, %rd5;\0A\09cvt.rn.f32.u16 %f4, %rs1;\0A\09fma.rn.f32 %f5, %f2, %f1, %f3;\0A\09add.rn.f32 %f5, %f5, %f4;\0A\09add.s64 %rd8, %rd6, %rd2;\0A\09shl.b64 %rd8, %rd8, 2;\0A\09cvta.to.global.u64 %rd9, %rd1;\0A\09add.s64 %rd9, %rd9, %rd8;\0A\09st.global.f32 [%rd9], %f5;\0A$L_done:\0A\09ret;\0A}\0A.visible .entry touch(\0A\09.param .u64 .ptr .align 1 touch_param_0\0A)\0A{\0A\09ret;\0A}\0A">]

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
    %t2 = gpu.launch_func async [%t1] @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c8, %c2, %c1) args(%d : memref<2x8xf32>, %n : i32, %f : f32, %c7 : index, %h : i16)
    %t3 = gpu.launch_func async [%t2] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<2x8xf32>, %n : i32, %f : f32, %c1 : index, %h : i16)
    gpu.wait [%t3]
    %p = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @kernels::@touch blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    %h2 = memref.alloc() : memref<2x8xf32>
    gpu.memcpy %h2, %d : memref<2x8xf32>, memref<2x8xf32>
    gpu.dealloc %d : memref<2x8xf32>
    %u = memref.cast %h2 : memref<2x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h2 : memref<2x8xf32>
    vector.print str "done\n"
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
