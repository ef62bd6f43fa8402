// https://github.com/hw-native-sys/PTOAS/pull/913
// Our tensor-level MLIR of cases/reported/ptoas-913-loop-invariant-reused.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %_1 = arith.constant 2.0e+00 : f32
  %inv = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_1 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
  ^bb0(%_2: f32, %_3: f32, %_4: f32):
    %_5 = arith.mulf %_2, %_3 : f32
    linalg.yield %_5 : f32
  } -> tensor<4xf32>
  %_6 = arith.constant 0 : index
  %_7 = arith.constant 3 : index
  %_8 = arith.constant 1 : index
  %r = scf.for %i = %_6 to %_7 step %_8 iter_args(%acc = %init) -> tensor<4xf32> {
    %u = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %inv : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%_9: f32, %_10: f32, %_11: f32):
      %_12 = arith.addf %_9, %_10 : f32
      linalg.yield %_12 : f32
    } -> tensor<4xf32>
    %_13 = arith.constant 5.0e-01 : f32
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%u, %_13 : tensor<4xf32>, f32) outs(%inv : tensor<4xf32>) {
    ^bb0(%_14: f32, %_15: f32, %_16: f32):
      %_17 = arith.mulf %_14, %_15 : f32
      linalg.yield %_17 : f32
    } -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
