module {
  %c = arith.constant 0 : index
  func.func @g() { return }
  func.func @f(%c: index) {
    return
  }
}
