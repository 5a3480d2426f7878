// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// gpu.binary with #gpu.object: several targets, formats (offload, assembly,
// bin, fatbin), properties and kernel metadata, an offloading handler,
// binary strings with escapes, and launches of kernels in a binary.

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "\7FELF\00\01\02 binary blob \FF">]
  gpu.binary @asm [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A">]
  gpu.binary @multi <#gpu.select_object<1>> [#gpu.object<#nvvm.target, bin = "A">, #gpu.object<#rocdl.target<chip = "gfx942">, "B">]
  gpu.binary @fat [#gpu.object<#nvvm.target, fatbin = "\00\11">]
  gpu.binary @offload [#gpu.object<#nvvm.target, offload = "llvm-ir">]
  gpu.binary @props [#gpu.object<#nvvm.target, properties = {O = 3 : i32, note = "x"}, "C">]
  gpu.binary @select_by_target <#gpu.select_object<#rocdl.target>> [#gpu.object<#nvvm.target, "N">, #gpu.object<#rocdl.target, "R">]
  gpu.binary @with_kernels [#gpu.object<#nvvm.target, kernels = <[#gpu.kernel_metadata<"kernel", !llvm.func<void (ptr, i64)>, metadata = {reg_count = 32 : i32}>]>, "D">]

  func.func @main(%p: !llvm.ptr, %n: i64) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr, %n : i64)
    %t = gpu.wait async
    %t2 = gpu.launch_func async [%t] @multi::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2]
    return
  }
}
