func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 7 : i32
  %m = memref.alloc() : memref<4xi32>
  vector.print %v : i32
  vector.print %v : i32
  %x = memref.load %m[%c4] : memref<4xi32>
  memref.dealloc %m : memref<4xi32>
  return
}
