// https://github.com/llvm/llvm-project/issues/77096
// Our tensor-level MLIR of cases/reported/llvm-77096-ownership-to-callee.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %_1 = arith.constant 1.0e+00 : f32
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_1 : tensor<2xf32>, f32) outs(%x : tensor<2xf32>) {
  ^bb0(%_2: f32, %_3: f32, %_4: f32):
    %_5 = arith.addf %_2, %_3 : f32
    linalg.yield %_5 : f32
  } -> tensor<2xf32>
  %ret = func.call @callee(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %_6 = arith.constant 2.0e+00 : f32
  %v = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ret, %_6 : tensor<2xf32>, f32) outs(%ret : tensor<2xf32>) {
  ^bb0(%_7: f32, %_8: f32, %_9: f32):
    %_10 = arith.mulf %_7, %_8 : f32
    linalg.yield %_10 : f32
  } -> tensor<2xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %v : tensor<2xf32>, tensor<2xf32>) outs(%a : tensor<2xf32>) {
  ^bb0(%_11: f32, %_12: f32, %_13: f32):
    %_14 = arith.addf %_11, %_12 : f32
    linalg.yield %_14 : f32
  } -> tensor<2xf32>
  func.return %v, %w : tensor<2xf32>, tensor<2xf32>
}

func.func @callee(%p: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %_1 = arith.constant 3.0e+00 : f32
  %q = linalg.fill ins(%_1 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%q, %p : tensor<2xf32>, tensor<2xf32>) outs(%q : tensor<2xf32>) {
  ^bb0(%_2: f32, %_3: f32, %_4: f32):
    %_5 = arith.addf %_2, %_3 : f32
    linalg.yield %_5 : f32
  } -> tensor<2xf32>
  func.return %o : tensor<2xf32>
}
