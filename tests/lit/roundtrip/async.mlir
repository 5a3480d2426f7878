// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// async: execute (no results, results, token and value dependencies,
// operands), await of tokens and values, yield, !async.token and
// !async.value<T> in signatures, runtime-like groups, and async regions
// wrapping gpu ops (the gpu-async-region style).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @execute(%a: f32, %m: memref<4xf32>) -> f32 {
    %t0 = async.execute {
      async.yield
    }
    %t1, %v1 = async.execute [%t0] -> !async.value<f32> {
      %b = arith.addf %a, %a : f32
      async.yield %b : f32
    }
    %t2, %v2:2 = async.execute [%t0, %t1] (%v1 as %x: !async.value<f32>) -> (!async.value<f32>, !async.value<i32>) {
      %c = arith.mulf %x, %x : f32
      %i = arith.constant 3 : i32
      async.yield %c, %i : f32, i32
    }
    async.await %t2 : !async.token
    %r = async.await %v2#0 : !async.value<f32>
    %t3, %v3 = async.execute -> !async.value<memref<4xf32>> {
      async.yield %m : memref<4xf32>
    }
    %mm = async.await %v3 : !async.value<memref<4xf32>>
    return %r : f32
  }

  func.func @pass_tokens(%t: !async.token, %v: !async.value<i32>) -> !async.token {
    async.await %t : !async.token
    %i = async.await %v : !async.value<i32>
    %sz = arith.constant 1 : index
    %g = async.create_group %sz : !async.group
    %ti = async.execute {
      async.yield
    }
    %idx = async.add_to_group %ti, %g : !async.token
    async.await_all %g
    return %t : !async.token
  }

  func.func @gpu_in_async(%n: index) {
    %c1 = arith.constant 1 : index
    %a0 = async.execute {
      %t = gpu.wait async
      %t1 = gpu.launch_func async [%t] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      gpu.wait [%t1]
      async.yield
    }
    %a1, %f1 = async.execute [%a0] -> !async.value<!gpu.async.token> {
      %t = gpu.wait async
      async.yield %t : !gpu.async.token
    }
    %tok = async.await %f1 : !async.value<!gpu.async.token>
    gpu.wait [%tok]
    return
  }
}
