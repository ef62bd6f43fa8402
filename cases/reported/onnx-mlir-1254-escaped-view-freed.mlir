// https://github.com/onnx/onnx-mlir/issues/1254
// Our tensor-level MLIR of cases/reported/onnx-mlir-1254-escaped-view-freed.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<8xf32> {bufferization.writable = false}) -> tensor<4xf32> {
  %_1 = arith.constant 1.0e+00 : f32
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_1 : tensor<8xf32>, f32) outs(%x : tensor<8xf32>) {
  ^bb0(%_2: f32, %_3: f32, %_4: f32):
    %_5 = arith.addf %_2, %_3 : f32
    linalg.yield %_5 : f32
  } -> tensor<8xf32>
  %v = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %_6 = arith.constant 3.0e+00 : f32
  %u = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t, %_6 : tensor<8xf32>, f32) outs(%t : tensor<8xf32>) {
  ^bb0(%_7: f32, %_8: f32, %_9: f32):
    %_10 = arith.mulf %_7, %_8 : f32
    linalg.yield %_10 : f32
  } -> tensor<8xf32>
  %_11 = arith.constant 2.0e+00 : f32
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v, %_11 : tensor<4xf32>, f32) outs(%v : tensor<4xf32>) {
  ^bb0(%_12: f32, %_13: f32, %_14: f32):
    %_15 = arith.mulf %_12, %_13 : f32
    linalg.yield %_15 : f32
  } -> tensor<4xf32>
  func.return %w : tensor<4xf32>
}
