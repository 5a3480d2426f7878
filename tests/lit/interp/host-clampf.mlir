// math.clampf is min(max(x, lo), hi), as the op is defined. (Upstream's --math-expand-ops turns it
// into maximumf(minimumf(x, lo), hi), which gives hi for these inputs, so this test has no
// upstream run.)
// RUN: %gpuinterp %s | FileCheck %s

func.func @main() {
  // CHECK: ( 0.5, -1, 2, nan )
  %x = arith.constant dense<[0.5, -5.0, 5.0, 0x7FC00000]> : vector<4xf32>
  %lo = arith.constant dense<-1.0> : vector<4xf32>
  %hi = arith.constant dense<2.0> : vector<4xf32>
  %k = math.clampf %x to [%lo, %hi] : vector<4xf32>
  vector.print %k : vector<4xf32>
  return
}
