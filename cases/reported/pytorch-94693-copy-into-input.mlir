// https://github.com/pytorch/pytorch/issues/94693
// Our tensor-level MLIR of cases/reported/pytorch-94693-copy-into-input.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<6xf32>) -> tensor<6xf32> {
  %a = tensor.extract_slice %x[0] [5] [1] : tensor<6xf32> to tensor<5xf32>
  %b = tensor.extract_slice %x[1] [5] [1] : tensor<6xf32> to tensor<5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b, %a : tensor<5xf32>, tensor<5xf32>) outs(%b : tensor<5xf32>) {
  ^bb0(%_1: f32, %_2: f32, %_3: f32):
    %_4 = arith.addf %_1, %_2 : f32
    linalg.yield %_4 : f32
  } -> tensor<5xf32>
  %r = tensor.insert_slice %s into %x[1] [5] [1] : tensor<5xf32> into tensor<6xf32>
  func.return %r : tensor<6xf32>
}
