// Two device buffers set on two token chains that join for the copies back; prints 7s and 9s.
// Used by copy-memset.test, errors.test, diff.test and trace.test.
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c7 = arith.constant 7 : i32
    %c9 = arith.constant 9 : i32
    %back = memref.alloc() : memref<4xi32>
    %host = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %b, %t2 = gpu.alloc async [%t0] () : memref<4xi32>
    %t3 = gpu.memset async [%t1] %a, %c7 : memref<4xi32>, i32
    %t4 = gpu.memset async [%t2] %b, %c9 : memref<4xi32>, i32
    %t5 = gpu.memcpy async [%t3, %t4] %back, %a : memref<4xi32>, memref<4xi32>
    %t6 = gpu.memcpy async [%t5] %host, %b : memref<4xi32>, memref<4xi32>
    %t7 = gpu.dealloc async [%t6] %a : memref<4xi32>
    %t8 = gpu.dealloc async [%t6] %b : memref<4xi32>
    gpu.wait [%t7, %t8]
    %u = memref.cast %back : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %v = memref.cast %host : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%v) : (memref<*xi32>) -> ()
    memref.dealloc %back : memref<4xi32>
    memref.dealloc %host : memref<4xi32>
    return
  }
}
