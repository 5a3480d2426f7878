// Kernels that fail on the device (kernels.test): on the cuda backend their gpu.module is compiled
// to PTX, which the fake driver runs; each failure is the launch's driver error.
//   @oob     8 threads store into 4 elements: an access past the allocation
//   @assert  threads 2 and 3 fail a cf.assert (__assertfail in PTX), after thread 0 and 1 print
//   @trap    a gpu.binary's PTX kernel that executes trap
//   @spin    one that never ends
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @store(%out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %out[%tx] : memref<4xi32>
      gpu.return
    }
    gpu.func @check(%n: i32) kernel {
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %c = arith.cmpi slt, %i, %n : i32
      gpu.printf "thread %d\n", %i : i32
      cf.assert %c, "thread id below n"
      gpu.return
    }
  }
  gpu.binary @bin [#gpu.object<#nvvm.target, "//\0A.version 7.0\0A.target sm_70\0A.address_size 64\0A.visible .entry stop()\0A{\0A\09trap;\0A\09ret;\0A}\0A.visible .entry spin()\0A{\0A$L_top:\0A\09bra.uni $L_top;\0A\09ret;\0A}\0A">]
  func.func @oob() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @k::@store blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<4xi32>)
    gpu.wait [%t2]
    vector.print str "not reached\n"
    return
  }
  func.func @assert() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 2 : i32
    gpu.launch_func @k::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%n : i32)
    gpu.wait
    vector.print str "not reached\n"
    return
  }
  func.func @trap() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @bin::@stop blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait
    vector.print str "not reached\n"
    return
  }
  func.func @spin() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @bin::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait
    vector.print str "not reached\n"
    return
  }
}
