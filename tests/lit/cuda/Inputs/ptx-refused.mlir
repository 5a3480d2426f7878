// PTX the fake driver cannot run (launch-ptx.test): @bad does not parse (@parse: its load fails), @uns
// holds an instruction the kernel engine does not run (@run: its cuModuleGetFunction fails).
module attributes {gpu.container_module} {
  gpu.binary @bad [#gpu.object<#nvvm.target, "//\0A.version 7.0\0A.target sm_70\0A.address_size 64\0A.visible .entry k()\0A{\0A\09frobnicate.u32 %r1;\0A\09ret;\0A}\0A">]
  gpu.binary @uns [#gpu.object<#nvvm.target, "//\0A.version 7.0\0A.target sm_70\0A.address_size 64\0A.visible .entry k()\0A{\0A\09brkpt;\0A\09ret;\0A}\0A">]
  func.func @parse() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @bad::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @run() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @uns::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
