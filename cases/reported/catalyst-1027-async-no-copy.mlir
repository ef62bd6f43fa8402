// https://github.com/PennyLaneAI/catalyst/pull/1027
// Our tensor-level MLIR of cases/reported/catalyst-1027-async-no-copy.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f, %_1 = async.execute -> !async.value<tensor<4xf32>> attributes {bufdiff.stream = 1 : i64} {
    %_2 = arith.constant 2.0e+00 : f32
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_2 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
    ^bb0(%_3: f32, %_4: f32, %_5: f32):
      %_6 = arith.mulf %_3, %_4 : f32
      linalg.yield %_6 : f32
    } -> tensor<4xf32>
    async.yield %g : tensor<4xf32>
  }
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%_7: f32, %_8: f32, %_9: f32):
    %_10 = arith.subf %_7, %_8 : f32
    linalg.yield %_10 : f32
  } -> tensor<4xf32>
  %g2 = async.await %_1 : !async.value<tensor<4xf32>>
  func.return %g2, %h : tensor<4xf32>, tensor<4xf32>
}
