// https://github.com/llvm/llvm-project/pull/98312
// Our tensor-level MLIR of cases/reported/llvm-98312-forall-shared-out-read-after.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%v: f32, %idx: index) -> (tensor<5xf32>, f32) {
  %e = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = scf.forall (%i) = (0) to (5) step (1) shared_outs(%o = %f) -> tensor<5xf32> {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<5xf32> to tensor<1xf32>
    %_1 = arith.constant 1.0e+00 : f32
    %s2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %_1 : tensor<1xf32>, f32) outs(%s : tensor<1xf32>) {
    ^bb0(%_2: f32, %_3: f32, %_4: f32):
      %_5 = arith.addf %_2, %_3 : f32
      linalg.yield %_5 : f32
    } -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s2 into %o[%i] [1] [1] : tensor<1xf32> into tensor<5xf32>
    }
  }
  %orig = tensor.extract %f[%idx] : tensor<5xf32>
  func.return %r, %orig : tensor<5xf32>, f32
}
