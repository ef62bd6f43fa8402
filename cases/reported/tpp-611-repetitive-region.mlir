// https://github.com/libxsmm/tpp-mlir/pull/611
// Our tensor-level MLIR of cases/reported/tpp-611-repetitive-region.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %_1 = arith.constant 0 : index
  %_2 = arith.constant 3 : index
  %_3 = arith.constant 1 : index
  %r = scf.for %i = %_1 to %_2 step %_3 iter_args(%acc = %init) -> tensor<4xf32> {
    %_4 = arith.constant 1.0e+00 : f32
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_4 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
    ^bb0(%_5: f32, %_6: f32, %_7: f32):
      %_8 = arith.addf %_5, %_6 : f32
      linalg.yield %_8 : f32
    } -> tensor<4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %y : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%_9: f32, %_10: f32, %_11: f32):
      %_12 = arith.addf %_9, %_10 : f32
      linalg.yield %_12 : f32
    } -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
