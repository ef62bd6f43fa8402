// https://github.com/pytorch/pytorch/pull/108811
// Our tensor-level MLIR of cases/reported/pytorch-108811-collective-buffer-reused.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %f, %_1 = async.execute -> !async.value<tensor<2x2xf32>> attributes {bufdiff.stream = 1 : i64} {
    %_2 = arith.constant 2.0e+00 : f32
    %ar = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %_2 : tensor<2x2xf32>, f32) outs(%a : tensor<2x2xf32>) {
    ^bb0(%_3: f32, %_4: f32, %_5: f32):
      %_6 = arith.mulf %_3, %_4 : f32
      linalg.yield %_6 : f32
    } -> tensor<2x2xf32>
    async.yield %ar : tensor<2x2xf32>
  }
  %ar2 = async.await %_1 : !async.value<tensor<2x2xf32>>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%ar2 : tensor<2x2xf32>) {
  ^bb0(%_7: f32, %_8: f32):
    %_9 = arith.constant 0.0e+00 : f32
    %_10 = arith.maximumf %_7, %_9 : f32
    linalg.yield %_10 : f32
  } -> tensor<2x2xf32>
  %z = tensor.empty() : tensor<2x2xf32>
  %_11 = arith.constant 0.0e+00 : f32
  %z0 = linalg.fill ins(%_11 : f32) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %d = linalg.matmul ins(%c, %c : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z0 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %ar2 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%d : tensor<2x2xf32>) {
  ^bb0(%_12: f32, %_13: f32, %_14: f32):
    %_15 = arith.addf %_12, %_13 : f32
    linalg.yield %_15 : f32
  } -> tensor<2x2xf32>
  func.return %e : tensor<2x2xf32>
}
