// https://github.com/roc-lang/roc/issues/7367
// Our tensor-level MLIR of cases/reported/roc-7367-inplace-in-loop.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%list: tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>) {
  %v = arith.constant 456 : i32
  %_1 = arith.constant 0 : index
  %_2 = arith.constant 1 : index
  %_3 = arith.constant 1 : index
  %r = scf.for %i = %_1 to %_2 step %_3 iter_args(%acc = %list) -> tensor<1xi32> {
    %u = tensor.insert %v into %acc[%i] : tensor<1xi32>
    scf.yield %u : tensor<1xi32>
  }
  func.return %list, %r : tensor<1xi32>, tensor<1xi32>
}
