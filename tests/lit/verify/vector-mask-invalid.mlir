// vector.mask's results are those of the op it masks, checked as mlir-opt 22 checks them.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @other_result_type(%m: memref<?xf32>, %i: index, %f: f32, %mask: vector<4xi1>) {
  // expected-error@+1 {{'vector.mask' op expects result type to match maskable operation result type}}
  %0 = vector.mask %mask { vector.transfer_read %m[%i], %f : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<1xf32>
  return
}

// -----

func.func @same_result_type(%m: memref<?xf32>, %i: index, %f: f32, %mask: vector<4xi1>) {
  %0 = vector.mask %mask { vector.transfer_read %m[%i], %f : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return
}

// -----

func.func @two_ops(%v: vector<4xf32>, %mask: vector<4xi1>) {
  // expected-error@+1 {{'vector.mask' op expects only one operation to mask}}
  %0 = "vector.mask"(%mask) ({
    %r = vector.reduction <add>, %v : vector<4xf32> into f32
    %s = vector.reduction <add>, %v : vector<4xf32> into f32
    vector.yield %s : f32
  }) : (vector<4xi1>) -> f32
  return
}
