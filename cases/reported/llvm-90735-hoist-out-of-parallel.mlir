// https://github.com/llvm/llvm-project/pull/90735
// Our tensor-level MLIR of cases/reported/llvm-90735-hoist-out-of-parallel.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = scf.forall (%i) = (0) to (2) step (1) shared_outs(%o = %e) -> tensor<2x3xf32> {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<1x3xf32>
    %_1 = arith.constant 2.0e+00 : f32
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%row, %_1 : tensor<1x3xf32>, f32) outs(%row : tensor<1x3xf32>) {
    ^bb0(%_2: f32, %_3: f32, %_4: f32):
      %_5 = arith.mulf %_2, %_3 : f32
      linalg.yield %_5 : f32
    } -> tensor<1x3xf32>
    %_6 = arith.constant 1.0e+00 : f32
    %u = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t, %_6 : tensor<1x3xf32>, f32) outs(%t : tensor<1x3xf32>) {
    ^bb0(%_7: f32, %_8: f32, %_9: f32):
      %_10 = arith.addf %_7, %_8 : f32
      linalg.yield %_10 : f32
    } -> tensor<1x3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %u into %o[%i, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<2x3xf32>
    }
  }
  func.return %r : tensor<2x3xf32>
}
