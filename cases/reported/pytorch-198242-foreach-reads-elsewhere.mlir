// https://github.com/pytorch/pytorch/pull/198242
// Our tensor-level MLIR of cases/reported/pytorch-198242-foreach-reads-elsewhere.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %a = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  %b = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  %na = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x4xf32>, tensor<1x4xf32>) outs(%a : tensor<1x4xf32>) {
  ^bb0(%_1: f32, %_2: f32, %_3: f32):
    %_4 = arith.addf %_1, %_2 : f32
    linalg.yield %_4 : f32
  } -> tensor<1x4xf32>
  %nb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %a : tensor<1x4xf32>, tensor<1x4xf32>) outs(%b : tensor<1x4xf32>) {
  ^bb0(%_5: f32, %_6: f32, %_7: f32):
    %_8 = arith.addf %_5, %_6 : f32
    linalg.yield %_8 : f32
  } -> tensor<1x4xf32>
  %y = tensor.insert_slice %na into %x[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  %z = tensor.insert_slice %nb into %y[1, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  func.return %z : tensor<2x4xf32>
}
