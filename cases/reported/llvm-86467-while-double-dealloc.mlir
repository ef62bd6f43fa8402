// https://github.com/llvm/llvm-project/issues/86467
// Our tensor-level MLIR of cases/reported/llvm-86467-while-double-dealloc.yaml: the same program, op for op
// (the plan that replays the report is in the case's runs).
func.func @main(%x: tensor<1xi32>) -> tensor<1xi32> {
  %e = tensor.empty() : tensor<1xi32>
  %_1 = arith.constant 0 : i32
  %z = linalg.fill ins(%_1 : i32) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  %r = scf.while (%acc = %z) : (tensor<1xi32>) -> (tensor<1xi32>) {
    %_2 = arith.constant 0 : index
    %s = tensor.extract %acc[%_2] : tensor<1xi32>
    %_3 = arith.constant 3 : i32
    %c = arith.cmpi slt, %s, %_3 : i32
    scf.condition(%c) %acc : tensor<1xi32>
  } do {
  ^bb0(%acc: tensor<1xi32>):
    %_4 = arith.constant 1 : i32
    %a2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %_4 : tensor<1xi32>, i32) outs(%acc : tensor<1xi32>) {
    ^bb0(%_5: i32, %_6: i32, %_7: i32):
      %_8 = arith.addi %_5, %_6 : i32
      linalg.yield %_8 : i32
    } -> tensor<1xi32>
    scf.yield %a2 : tensor<1xi32>
  }
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r, %x : tensor<1xi32>, tensor<1xi32>) outs(%r : tensor<1xi32>) {
  ^bb0(%_9: i32, %_10: i32, %_11: i32):
    %_12 = arith.addi %_9, %_10 : i32
    linalg.yield %_12 : i32
  } -> tensor<1xi32>
  func.return %o : tensor<1xi32>
}
