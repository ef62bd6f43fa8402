// https://github.com/llvm/llvm-project/issues/218091
// Our tensor-level MLIR of cases/reported/llvm-218091-hoisted-tensor-written.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%a: i32, %z: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %t = linalg.fill ins(%a : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %seven = arith.constant 7 : i32
  %_1 = arith.constant 0 : index
  %_2 = arith.constant 2 : index
  %_3 = arith.constant 1 : index
  %r = scf.for %i = %_1 to %_2 step %_3 iter_args(%acc = %z) -> tensor<4xi32> {
    %ins = tensor.insert %seven into %t[%i] : tensor<4xi32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %ins : tensor<4xi32>, tensor<4xi32>) outs(%acc : tensor<4xi32>) {
    ^bb0(%_4: i32, %_5: i32, %_6: i32):
      %_7 = arith.addi %_4, %_5 : i32
      linalg.yield %_7 : i32
    } -> tensor<4xi32>
    scf.yield %s : tensor<4xi32>
  }
  func.return %r : tensor<4xi32>
}
