// A gpu.binary whose PTX kernel calls vprintf (printf.test): @show prints each thread's element
// of a memref (its descriptor's five fields are the .params; p1 is the aligned pointer). The host
// memsets the buffer to 7, launches, prints, waits, then sets it to 9 and launches again: a GPU
// prints each launch's lines at the wait after it, so they come after "launched", before "waited".
module attributes {gpu.container_module} {
  gpu.binary @bin [#gpu.object<#nvvm.target, "//\0A.version 6.0\0A.target sm_70\0A.address_size 64\0A.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\0A.global .align 1 .b8 fmt[15] = {116, 104, 114, 101, 97, 100, 32, 37, 100, 58, 32, 37, 100, 10, 0};\0A.visible .entry show(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3, .param .u64 p4)\0A{\0A\09.local .align 8 .b8 depot[8];\0A\09.reg .b64 %SP;\0A\09.reg .b64 %SPL;\0A\09.reg .b32 %r<4>;\0A\09.reg .b64 %rd<8>;\0A\09mov.b64 %SPL, depot;\0A\09cvta.local.u64 %SP, %SPL;\0A\09ld.param.u64 %rd5, [p1];\0A\09cvta.to.global.u64 %rd5, %rd5;\0A\09mov.u32 %r1, %tid.x;\0A\09mul.wide.u32 %rd6, %r1, 4;\0A\09add.s64 %rd7, %rd5, %rd6;\0A\09ld.global.u32 %r2, [%rd7];\0A\09add.u64 %rd1, %SP, 0;\0A\09add.u64 %rd2, %SPL, 0;\0A\09st.local.v2.b32 [%rd2], {%r1, %r2};\0A\09{\0A\09.param .b64 param0;\0A\09.param .b64 param1;\0A\09.param .b32 retval0;\0A\09st.param.b64 [param1], %rd1;\0A\09mov.b64 %rd3, fmt;\0A\09cvta.global.u64 %rd4, %rd3;\0A\09st.param.b64 [param0], %rd4;\0A\09call.uni (retval0), vprintf, (param0, param1);\0A\09}\0A\09ret;\0A}\0A">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %seven = arith.constant 7 : i32
    %nine = arith.constant 9 : i32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.memset async [%t1] %d, %seven : memref<4xi32>, i32
    %t3 = gpu.launch_func async [%t2] @bin::@show blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    vector.print str "launched once\n"
    gpu.wait [%t3]
    vector.print str "waited once\n"
    %t4 = gpu.wait async
    %t5 = gpu.memset async [%t4] %d, %nine : memref<4xi32>, i32
    %t6 = gpu.launch_func async [%t5] @bin::@show blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    vector.print str "launched twice\n"
    %t7 = gpu.dealloc async [%t6] %d : memref<4xi32>
    gpu.wait [%t7]
    vector.print str "waited twice\n"
    return
  }
}
