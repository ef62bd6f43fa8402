// https://github.com/llvm/llvm-project/pull/118958
// Our tensor-level MLIR of cases/reported/llvm-118958-empty-all-uses.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%d: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %_1 = arith.constant 1.0e+00 : f32
  %f = linalg.fill ins(%_1 : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tensor.insert_slice %f into %d[1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %_2 = arith.constant 2.0e+00 : f32
  %g = linalg.fill ins(%_2 : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %r, %g : tensor<4x4xf32>, tensor<2x4xf32>
}
