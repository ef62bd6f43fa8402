// https://github.com/Xilinx/mlir-aie/issues/3656
// Our tensor-level MLIR of cases/reported/mlir-aie-3656-inplace-residual-race.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<8xf32>, %ffn: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %f1, %_1 = async.execute -> !async.value<tensor<8xf32>> attributes {bufdiff.stream = 1 : i64} {
    %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) {
    ^bb0(%_2: f32, %_3: f32, %_4: f32):
      %_5 = arith.mulf %_2, %_3 : f32
      linalg.yield %_5 : f32
    } -> tensor<8xf32>
    async.yield %sq : tensor<8xf32>
  }
  %f2, %_6 = async.execute -> !async.value<tensor<8xf32>> attributes {bufdiff.stream = 2 : i64} {
    %res = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %ffn : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) {
    ^bb0(%_7: f32, %_8: f32, %_9: f32):
      %_10 = arith.addf %_7, %_8 : f32
      linalg.yield %_10 : f32
    } -> tensor<8xf32>
    async.yield %res : tensor<8xf32>
  }
  %sq2 = async.await %_1 : !async.value<tensor<8xf32>>
  %res2 = async.await %_6 : !async.value<tensor<8xf32>>
  func.return %sq2, %res2 : tensor<8xf32>, tensor<8xf32>
}
