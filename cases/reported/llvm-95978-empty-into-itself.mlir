// https://github.com/llvm/llvm-project/pull/95978
// Our tensor-level MLIR of cases/reported/llvm-95978-empty-into-itself.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%v: f32) -> tensor<1x7x1xf32> {
  %e = tensor.empty() : tensor<1x7x1xf32>
  %r = tensor.insert_slice %e into %e[0, 0, 0] [1, 7, 1] [1, 1, 1] : tensor<1x7x1xf32> into tensor<1x7x1xf32>
  %f = linalg.fill ins(%v : f32) outs(%r : tensor<1x7x1xf32>) -> tensor<1x7x1xf32>
  func.return %f : tensor<1x7x1xf32>
}
