// A gpu.binary holding an AMD code object (an ELF header for EM_AMDGPU: the fake runtime keeps
// nothing of it), launched with one memref and one i32 (kernels.test).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx90a">, bin = "\7FELF\02\01\01\40\02\00\00\00\00\00\00\00\03\00\E0\00\01\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00">]

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
