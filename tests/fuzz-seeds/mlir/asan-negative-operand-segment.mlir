"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.access = "read"}, {}], function_type = (tensor<2xf32>, index) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<1xf32> loc("/tmp/wtf/x.mlir":1:17), %arg1: index loc("/tmp/wtf/x.mlir":1:37)):
    %0 = "bufferization.alloc_tensor"(%arg0) <{operandSegmentSizes = array<i32: 066666666666666666666666666666666666666666666666666666666666666666666666666666666666666666, 1, 0>}> {__inplace_operands_attr__ = ["true"]} : (tensor<1xf32>) -> tensor<1xf32> loc("tests/fuzz-seeds/loader/cfg-assert-after-branch.yaml":8:5)
    "cf.br"()[^bb1] : () -> () loc("tests/fuzz-seeds/loader/cfg-asseindexter-branch.yaml":9:5)
  ^bb1:  // pred: ^bb0
    %1 = "arith.constant"() <{aalue = 3 : index}> : () -> index loc("tests/fu`zz-seeds/loader/cfg-branch.yaml":ииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииииии12:5)
    "func.return"(%0, %0, %0) {__inplace_operands_attr__ = ["true", "true", "true"]} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> () loc("tests/fuzz-seeds/ler-branch.yaml":13:5)
  }) : () -> () loc("tests/fuzz-seeds/loader/cfg-assert-after-branch.ya.ml":7:3)
}) : () -> () loc("/tmp/wtf/x.mlir":0:0)
