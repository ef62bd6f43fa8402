// https://github.com/llvm/llvm-project/issues/90019
// Our tensor-level MLIR of cases/reported/llvm-90019-map-in-loop.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %_1 = arith.constant 0.0e+00 : f32
  %f = linalg.fill ins(%_1 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %_2 = arith.constant 0 : index
  %_3 = arith.constant 1 : index
  %r = scf.for %i = %_2 to %n step %_3 iter_args(%acc = %b) -> tensor<4xf32> {
    %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%_4: f32, %_5: f32, %_6: f32):
      %_7 = arith.subf %_4, %_5 : f32
      linalg.yield %_7 : f32
    } -> tensor<4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %m : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%_8: f32, %_9: f32, %_10: f32):
      %_11 = arith.addf %_8, %_9 : f32
      linalg.yield %_11 : f32
    } -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
