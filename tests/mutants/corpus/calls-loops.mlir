// Tokens through a call and its return, an scf.for whose iterations each read what the previous
// one wrote, and an scf.if on the loop index whose two branches both run: every dependency
// orders two conflicting accesses, and every copy shows in the printed result.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%a: memref<4xi32>, %by: i32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xi32>
      %y = arith.addi %x, %by : i32
      memref.store %y, %a[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)

  // copies src to dst after dep; the caller waits for the returned token
  func.func @copy_after(%dep: !gpu.async.token, %dst: memref<4xi32>, %src: memref<4xi32>) -> !gpu.async.token {
    %t = gpu.memcpy async [%dep] %dst, %src : memref<4xi32>, memref<4xi32>
    return %t : !gpu.async.token
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : i32
    %c100 = arith.constant 100 : i32
    %h = memref.alloc() : memref<4xi32>
    %log = memref.alloc() : memref<4xi32>
    %res = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %h[%i] : memref<4xi32>
    }
    %a, %ta = gpu.alloc async () : memref<4xi32>
    %b = gpu.alloc () : memref<4xi32>
    %t1 = func.call @copy_after(%ta, %a, %h) : (!gpu.async.token, memref<4xi32>, memref<4xi32>) -> !gpu.async.token
    // four trips: a += 10 or 100 (by the parity of the trip), then b <- a, each trip after the last
    %t2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t1) -> (!gpu.async.token) {
      %r = arith.remui %i, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      %k = scf.if %even -> (!gpu.async.token) {
        %x = gpu.launch_func async [%acc] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xi32>, %c10 : i32)
        scf.yield %x : !gpu.async.token
      } else {
        %x = gpu.launch_func async [%acc] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xi32>, %c100 : i32)
        scf.yield %x : !gpu.async.token
      }
      %n = gpu.memcpy async [%k] %b, %a : memref<4xi32>, memref<4xi32>
      scf.yield %n : !gpu.async.token
    }
    // log <- b through the callee (after the loop), res <- a at once on another stream
    %t3 = func.call @copy_after(%t2, %log, %b) : (!gpu.async.token, memref<4xi32>, memref<4xi32>) -> !gpu.async.token
    %t4 = gpu.memcpy async [%t2] %res, %a : memref<4xi32>, memref<4xi32>
    gpu.wait [%t3, %t4]
    %u = memref.cast %log : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %w = memref.load %res[%c2] : memref<4xi32>
    vector.print %w : i32
    gpu.dealloc %b : memref<4xi32>
    gpu.dealloc %a : memref<4xi32>
    return
  }
}
