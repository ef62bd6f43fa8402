// https://github.com/iree-org/iree/issues/24665
// Our tensor-level MLIR of cases/reported/iree-24665-outs-arg-returned.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%k: tensor<4xi32>, %v: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%k, %v : tensor<4xi32>, tensor<4xi32>) outs(%v : tensor<4xi32>) {
  ^bb0(%_1: i32, %_2: i32, %_3: i32):
    %_4 = arith.maxsi %_1, %_2 : i32
    linalg.yield %_4 : i32
  } -> tensor<4xi32>
  func.return %s, %v : tensor<4xi32>, tensor<4xi32>
}
