// https://github.com/pytorch/pytorch/pull/103720
// Our tensor-level MLIR of cases/reported/pytorch-103720-double-del.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %_1 = arith.constant 2.0e+00 : f32
  %b0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_1 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
  ^bb0(%_2: f32, %_3: f32, %_4: f32):
    %_5 = arith.mulf %_2, %_3 : f32
    linalg.yield %_5 : f32
  } -> tensor<4xf32>
  %_6 = arith.constant 1.0e+00 : f32
  %b1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b0, %_6 : tensor<4xf32>, f32) outs(%b0 : tensor<4xf32>) {
  ^bb0(%_7: f32, %_8: f32, %_9: f32):
    %_10 = arith.addf %_7, %_8 : f32
    linalg.yield %_10 : f32
  } -> tensor<4xf32>
  %b2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %b1 : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%_11: f32, %_12: f32, %_13: f32):
    %_14 = arith.addf %_11, %_12 : f32
    linalg.yield %_14 : f32
  } -> tensor<4xf32>
  func.return %b2 : tensor<4xf32>
}
