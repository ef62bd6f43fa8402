// https://github.com/libxsmm/tpp-mlir/pull/588
// Our tensor-level MLIR of cases/reported/tpp-588-same-operand-twice.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<3x3xf32>, tensor<3x3xf32>) outs(%x : tensor<3x3xf32>) {
  ^bb0(%_1: f32, %_2: f32, %_3: f32):
    %_4 = arith.addf %_1, %_2 : f32
    linalg.yield %_4 : f32
  } -> tensor<3x3xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %x : tensor<3x3xf32>, tensor<3x3xf32>) outs(%y : tensor<3x3xf32>) {
  ^bb0(%_5: f32, %_6: f32, %_7: f32):
    %_8 = arith.addf %_5, %_6 : f32
    linalg.yield %_8 : f32
  } -> tensor<3x3xf32>
  func.return %z : tensor<3x3xf32>
}
