func.func @fine() {
  return
}

// -----

func.func @missing_size() {
  %a = memref.alloc() : memref<?xf32>
  return
}
