// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// nvvm: special register reads (with ranges), barriers, shuffles (all
// kinds, with and without the valid/pred flag), vote, warp size, inside an
// llvm.func kernel of a gpu.module.

module attributes {gpu.container_module} {
  gpu.module @nvvm_kernels [#nvvm.target] {
    llvm.func @sregs() attributes {gpu.kernel, nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x : i32
      %1 = nvvm.read.ptx.sreg.tid.y : i32
      %2 = nvvm.read.ptx.sreg.tid.z : i32
      %3 = nvvm.read.ptx.sreg.ntid.x : i32
      %4 = nvvm.read.ptx.sreg.ntid.y : i32
      %5 = nvvm.read.ptx.sreg.ntid.z : i32
      %6 = nvvm.read.ptx.sreg.ctaid.x : i32
      %7 = nvvm.read.ptx.sreg.ctaid.y : i32
      %8 = nvvm.read.ptx.sreg.ctaid.z : i32
      %9 = nvvm.read.ptx.sreg.nctaid.x : i32
      %10 = nvvm.read.ptx.sreg.nctaid.y : i32
      %11 = nvvm.read.ptx.sreg.nctaid.z : i32
      %12 = nvvm.read.ptx.sreg.laneid : i32
      %13 = nvvm.read.ptx.sreg.warpsize : i32
      %14 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
      %15 = nvvm.read.ptx.sreg.warpid : i32
      %16 = nvvm.read.ptx.sreg.clock64 : i64
      llvm.return
    }

    llvm.func @sync(%x: f32, %i: i32) -> f32 {
      nvvm.barrier0
      %mask = llvm.mlir.constant(-1 : i32) : i32
      %off = llvm.mlir.constant(1 : i32) : i32
      %clamp = llvm.mlir.constant(31 : i32) : i32
      %0 = nvvm.shfl.sync bfly %mask, %x, %off, %clamp : f32 -> f32
      %1 = nvvm.shfl.sync up %mask, %i, %off, %clamp : i32 -> i32
      %2 = nvvm.shfl.sync down %mask, %x, %off, %clamp : f32 -> f32
      %3 = nvvm.shfl.sync idx %mask, %i, %off, %clamp : i32 -> i32
      %4 = nvvm.shfl.sync bfly %mask, %x, %off, %clamp {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
      %5 = llvm.extractvalue %4[0] : !llvm.struct<(f32, i1)>
      %6 = llvm.extractvalue %4[1] : !llvm.struct<(f32, i1)>
      %p = llvm.mlir.constant(true) : i1
      %7 = nvvm.vote.sync ballot %mask, %p -> i32
      nvvm.bar.warp.sync %mask : i32
      llvm.return %5 : f32
    }
  }
}
