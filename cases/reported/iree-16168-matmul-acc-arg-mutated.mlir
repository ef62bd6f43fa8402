// https://github.com/iree-org/iree/issues/16168
// Our tensor-level MLIR of cases/reported/iree-16168-matmul-acc-arg-mutated.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%lhs: tensor<2x2xf32>, %rhs: tensor<2x2xf32>, %acc: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = linalg.matmul ins(%lhs, %rhs : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %r, %acc : tensor<2x2xf32>, tensor<2x2xf32>
}
