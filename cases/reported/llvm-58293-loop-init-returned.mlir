// https://github.com/llvm/llvm-project/issues/58293
// Our tensor-level MLIR of cases/reported/llvm-58293-loop-init-returned.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %_1 = arith.constant 0 : index
  %_2 = arith.constant 4 : index
  %_3 = arith.constant 1 : index
  %r = scf.for %i = %_1 to %_2 step %_3 iter_args(%acc = %x) -> tensor<4xi32> {
    %v = tensor.extract %acc[%i] : tensor<4xi32>
    %_4 = arith.constant 1 : i32
    %w = arith.addi %v, %_4 : i32
    %u = tensor.insert %w into %acc[%i] : tensor<4xi32>
    scf.yield %u : tensor<4xi32>
  }
  func.return %x : tensor<4xi32>
}
