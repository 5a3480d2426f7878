// Allocates device memory and never frees it: a leak at exit.
func.func @main() {
  %t = gpu.wait async
  %m, %t1 = gpu.alloc async [%t] () : memref<4xf32>
  gpu.wait [%t1]
  return
}
