func.func @too_few_indices(%m: memref<4x4xf32>, %i: index) -> f32 {
  %v = memref.load %m[%i] : memref<4x4xf32>
  return %v : f32
}
