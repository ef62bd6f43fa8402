// https://github.com/hw-native-sys/pypto/pull/1825
// Our tensor-level MLIR of cases/reported/pypto-1825-inplace-transpose.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %t = linalg.transpose ins(%x : tensor<3x3xf32>) outs(%x : tensor<3x3xf32>) permutation = [1, 0]
  func.return %t : tensor<3x3xf32>
}
