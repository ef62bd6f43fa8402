"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.access = "read-write"}, {bufferization.access = "read"}], function_type = (tensor<4xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xi32> loc("/tmp/wtf/x.mlir":1:17), %arg1: tensor<2xi32> loc("/tmp/wtf/x.mlir":1:36)):
    %0 = "tensor.insert_slice"(%arg1, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> {__inplace_operands_attr__ = ["true", "false"]} : (tensor<2xi32>, tensor<4xi32>) -> tensor<4xi32> loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":7:5)
    %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":8:5)
    %2 = "linalg.generic"(%arg0, %1, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg2: i32 loc("/tmp/wtf/x.mlir":5:8), %arg3: i32 loc("/tmp/wtf/x.mlir":5:18), %arg4: i32 loc("/tmp/wtf/x.mlir":5:28)):
      %3 = "arith.addi"(%arg2, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":8:5)
      "linalg.yield"(%3) : (i32) -> () loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":8:5)
    }) {__inplace_operands_attr__ = ["true", "none", "true"]} : (tensor<4xi32>, i32, tensor<4xi32>) -> tensor<4xi32> loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":8:5)
    "func.return"(%0, %2) {__equivalent_func_args__ = [-1, 0], __inplace_operands_attr__ = ["true", "true"]} : (tensor<4xi32>, tensor<4xi32>) -> () loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":9:5)
  }) : () -> () loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":6:3)
}) : () -> () loc("/tmp/wtf/x.mlir":0:0)
