// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/concurrent-kernels.mlir:
// two launches on independent streams (tokens from two gpu.wait async)
// that each bump a host_shared counter atomically and then spin until both
// arrived, so they only finish if they run concurrently. Written with the
// loose spellings upstream uses: `scf.while:` without a space, `args(%x:
// T)` without a space, a launch_func spread over several lines.

module attributes {gpu.container_module} {
    gpu.module @kernels {
        gpu.func @rendezvous(%counter: memref<i32>) kernel {
            %zero = arith.constant 0 : i32
            %one = arith.constant 1 : i32
            %two = arith.constant 2 : i32
            %old = memref.atomic_rmw addi %one, %counter[] : (i32, memref<i32>) -> i32
            scf.while: () -> () {
                %now = memref.atomic_rmw addi %zero, %counter[] : (i32, memref<i32>) -> i32
                %again = arith.cmpi slt, %now, %two : i32
                scf.condition(%again)
            } do {
                scf.yield
            }
            gpu.return
        }
    }

    func.func @main() {
        %counter = gpu.alloc host_shared () : memref<i32>
        %zero = arith.constant 0 : i32
        memref.store %zero, %counter[] : memref<i32>

        %s0 = gpu.wait async
        %s1 = gpu.wait async
        %c1 = arith.constant 1 : index
        %k0 = gpu.launch_func async [%s0] @kernels::@rendezvous
            blocks in (%c1, %c1, %c1)
            threads in (%c1, %c1, %c1)
            args(%counter: memref<i32>)
        %k1 = gpu.launch_func async [%s1] @kernels::@rendezvous
            blocks in (%c1, %c1, %c1)
            threads in (%c1, %c1, %c1)
            args(%counter: memref<i32>)
        gpu.wait [%k0, %k1]
        %v = memref.load %counter[] : memref<i32>
        vector.print %v : i32
        gpu.dealloc %counter : memref<i32>
        return
    }
}
