// https://github.com/pytorch/pytorch/issues/183575
// Our tensor-level MLIR of cases/reported/pytorch-183575-false-mutation-reuse.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%m: tensor<4xf32>, %g1: tensor<4xf32>, %p: tensor<4xf32>, %g2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%g1, %m : tensor<4xf32>, tensor<4xf32>) outs(%g1 : tensor<4xf32>) {
  ^bb0(%_1: f32, %_2: f32, %_3: f32):
    %_4 = arith.subf %_1, %_2 : f32
    linalg.yield %_4 : f32
  } -> tensor<4xf32>
  %_5 = arith.constant 5.0e-01 : f32
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%d, %_5 : tensor<4xf32>, f32) outs(%d : tensor<4xf32>) {
  ^bb0(%_6: f32, %_7: f32, %_8: f32):
    %_9 = arith.mulf %_6, %_7 : f32
    linalg.yield %_9 : f32
  } -> tensor<4xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m, %t : tensor<4xf32>, tensor<4xf32>) outs(%m : tensor<4xf32>) {
  ^bb0(%_10: f32, %_11: f32, %_12: f32):
    %_13 = arith.addf %_10, %_11 : f32
    linalg.yield %_13 : f32
  } -> tensor<4xf32>
  %p1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p, %m1 : tensor<4xf32>, tensor<4xf32>) outs(%p : tensor<4xf32>) {
  ^bb0(%_14: f32, %_15: f32, %_16: f32):
    %_17 = arith.subf %_14, %_15 : f32
    linalg.yield %_17 : f32
  } -> tensor<4xf32>
  %_18 = arith.constant 1.0e+00 : f32
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%g2, %_18 : tensor<4xf32>, f32) outs(%m1 : tensor<4xf32>) {
  ^bb0(%_19: f32, %_20: f32, %_21: f32):
    %_22 = arith.mulf %_19, %_20 : f32
    linalg.yield %_22 : f32
  } -> tensor<4xf32>
  func.return %m1, %p1, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
