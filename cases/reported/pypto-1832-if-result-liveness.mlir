// https://github.com/hw-native-sys/pypto/pull/1832
// Our tensor-level MLIR of cases/reported/pypto-1832-if-result-liveness.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %_1 = arith.constant 1.0e+00 : f32
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_1 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
    ^bb0(%_2: f32, %_3: f32, %_4: f32):
      %_5 = arith.addf %_2, %_3 : f32
      linalg.yield %_5 : f32
    } -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %_6 = arith.constant 2.0e+00 : f32
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r, %_6 : tensor<4xf32>, f32) outs(%r : tensor<4xf32>) {
  ^bb0(%_7: f32, %_8: f32, %_9: f32):
    %_10 = arith.mulf %_7, %_8 : f32
    linalg.yield %_10 : f32
  } -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}
