// What gpuinterp says for each kind of object a gpu.binary can hold, told from the object's bytes
// (be_blob_kind): only PTX will run; SASS is refused with the way to get PTX; anything else is
// named. The binaries here are made by hand: only their first bytes matter.

// RUN: not %gpuinterp --split-input-file %s 2>&1 | FileCheck %s

// an empty object
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels::@k: kernel binary is empty
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// an AMD code object: ELF with machine EM_AMDGPU (224)
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels::@k: kernel binary (AMD GPU code object (HSACO)) is not PTX, which the simulator needs
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#rocdl.target, bin = "\7FELF\02\01\01@\02\00\00\00\00\00\00\00\03\00\E0\00\01\00\00\00">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// LLVM bitcode (format offload)
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels::@k: kernel binary (LLVM bitcode) is not PTX, which the simulator needs
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, offload = "BC\C0\DE\35\14\00\00">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// text that is not PTX: no .version after the comments
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels::@k: kernel binary (unrecognized data) is not PTX, which the simulator needs
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, assembly = "// a comment\0A.target sm_90\0A">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// a cubin header by hand: ELF with machine EM_CUDA (190)
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels::@k: kernel binary is a cubin (SASS), which the simulator cannot run; compile with
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF\02\01\013\07\00\00\00\00\00\00\00\02\00\BE\00\01\00\00\00">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// -----

// the handler picks the second object: PTX after a block comment and blank lines
// CHECK: binary-kinds.mlir:[[@LINE+6]]:5: error: 'gpu.launch_func' op @kernels.ptx has no kernel (.entry) 'k'
module attributes {gpu.container_module} {
  gpu.binary @kernels <#gpu.select_object<1>> [#gpu.object<#nvvm.target, bin = "\7FELF\02\01\01A\08\00\00\00\00\00\00\00\02\00\BE\00">, #gpu.object<#nvvm.target, assembly = "/* made by hand */\0A\0A  .version 8.0\0A.target sm_90\0A">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 3 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}
