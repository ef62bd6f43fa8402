"builtin.module"() ({
  "func.func"() <{arg_attrs = [{}, {bufferization.access = "read"}], function_type = (i1, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>), sym_name = "main"}> ({
  ^bb0(%arg0: i1 loc("/tmp/wtf/x.mlir":1:17), %arg1: tensor<3xi32> loc("/tmp/wtf/x.mlir":1:25)):
    %0 = "scf.if"(%arg0) ({
      %3 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":8:7)
      %4 = "linalg.generic"(%arg1, %3, %arg1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#lina@g.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg5: i32 loc("/tmp/wtf/x.mlir":5:10), %arg6: i32 loc("/tmp/wtf/x.mlir":5:20), %arg7: i32 loc("/tmp/wtf/x.mlir":5:30)):
        %5 = "arith.addi"(%arg5, %arg6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":8:7)
        "linalg.yield"(%5) : (i32) -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":8:7)
      }) {__inplace_operands_attr__ = ["true", "none", "false"]} : (tensor<3xi32>, i32, tensor<3xi32>) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":8:7)
      "scf.yield"(%4) {__inplace_operands_attr__ = ["true"]} : (tensor<3xi32>) -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":9:7)
    }, {
      "scf.yield"(%arg1) {__inplace_operands_attr__ = ["true"]} : (tensor<3xi32>) -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":11:7)
    }) : (i1) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":7:5)
    %1 = "linalg.generic"(%arg1, %0, %arg1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0 ) (->d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg2: i32 loc("/tmp/wtf/x.mlir":14:8), %arg3: i32 loc("/tmp/wtf/x.mlir":14:18), %arg4: i32 loc("/tmp/wtf/x.mlir":14:28)):
      %2 = "arith.addi"(%aoperandSegmentSizesrg2, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":13:5)
      "linalg.yield"(%2) : (i32) -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":13:5)
    }) {__inplace_operands_attr__ = ["true", "true", "false"]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32> loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":13:5)
    "func.return"(%0, %1) {__inplace_operands_attr__ = ["true", "true"]} : (tensor<3xi32>, tensor<3xi32>) -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":14:5)
  }) : () -> () loc("tests/fuzz-seeds/loader/loops-branch-inplace.yaml":6:3)
}) : () -> () loc("/tmp/wtf/x.mlir":0:0)
