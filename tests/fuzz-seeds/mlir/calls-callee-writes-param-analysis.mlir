"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.access = "read-write"}], function_type = (tensor<3xi32>) -> tensor<3xi32>, sym_name = "main"}> ({
  ^bb0(%arg4: tensor<3xi32> loc("/tmp/wtf/x.mlir":1:17)):
    %3 = "func.call"(%arg4) <{callee = @inc}> {__inplace_operands_attr__ = ["false"]} : (tensor<3xi32>) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":7:5)
    %4 = "linalg.generic"(%arg4, %3, %arg4) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg5: i32 loc("/tmp/wtf/x.mlir":4:8), %arg6: i32 loc("/tmp/wtf/x.mlir":4:18), %arg7: i32 loc("/tmp/wtf/x.mlir":4:28)):
      %5 = "arith.addi"(%arg5, %arg6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":8:5)
      "linalg.yield"(%5) : (i32) -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":8:5)
    }) {__inplace_operands_attr__ = ["true", "true", "true"]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":8:5)
    "func.return"(%4) {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} : (tensor<3xi32>) -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":9:5)
  }) : () -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":6:3)
  "func.func"() <{arg_attrs = [{bufferization.access = "read-write"}], function_type = (tensor<3xi32>) -> tensor<3xi32>, sym_name = "inc"}> ({
  ^bb0(%arg0: tensor<3xi32> loc("/tmp/wtf/x.mlir":11:16)):
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":12:5)
    %1 = "linalg.generic"(%arg0, %0, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: i32 loc("/tmp/wtf/x.mlir":14:8), %arg2: i32 loc("/tmp/wtf/x.mlir":14:18), %arg3: i32 loc("/tmp/wtf/x.mlir":14:28)):
      %2 = "arith.addi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":12:5)
      "linalg.yield"(%2) : (i32) -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":12:5)
    }) {__inplace_operands_attr__ = ["true", "none", "true"]} : (tensor<3xi32>, i32, tensor<3xi32>) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":12:5)
    "func.return"(%1) {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} : (tensor<3xi32>) -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":13:5)
  }) : () -> () loc("tests/fuzz-seeds/loader/calls-callee-writes-param.yaml":11:3)
}) : () -> () loc("/tmp/wtf/x.mlir":0:0)
