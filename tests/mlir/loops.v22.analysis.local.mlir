"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.access = "read"}, {}], function_type = (tensor<4xf32>, index) -> (tensor<4xf32>, f32), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32> loc("loops.mlir":1:17), %arg1: index loc("loops.mlir":1:36)):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index loc("loops.mlir":2:9)
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index loc("loops.mlir":3:9)
    %2 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("loops.mlir":4:10)
    %3 = "tensor.empty"() : () -> tensor<4xf32> loc("loops.mlir":5:8)
    %4 = "linalg.fill"(%2, %3) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg4: f32 loc(unknown), %arg5: f32 loc(unknown)):
      "linalg.yield"(%arg4) : (f32) -> () loc(unknown)
    }) {__inplace_operands_attr__ = ["none", "true"]} : (f32, tensor<4xf32>) -> tensor<4xf32> loc("loops.mlir":6:8)
    %5 = "scf.for"(%0, %arg1, %1, %arg0) ({
    ^bb0(%arg2: index loc("loops.mlir":7:16), %arg3: tensor<4xf32> loc("loops.mlir":7:50)):
      %9 = "tensor.extract"(%arg3, %arg2) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, index) -> f32 loc("loops.mlir":8:10)
      %10 = "arith.addf"(%9, %2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("loops.mlir":9:10)
      %11 = "tensor.insert"(%10, %arg3, %arg2) {__inplace_operands_attr__ = ["none", "true", "none"]} : (f32, tensor<4xf32>, index) -> tensor<4xf32> loc("loops.mlir":10:10)
      "scf.yield"(%11) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc("loops.mlir":11:5)
    }) {__inplace_operands_attr__ = ["none", "none", "none", "false"]} : (index, index, index, tensor<4xf32>) -> tensor<4xf32> loc("loops.mlir":7:8)
    %6 = "tensor.extract"(%arg0, %0) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, index) -> f32 loc("loops.mlir":13:8)
    %7 = "arith.cmpf"(%6, %2) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1 loc("loops.mlir":14:8)
    %8 = "scf.if"(%7) ({
      "scf.yield"(%5) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc("loops.mlir":16:5)
    }, {
      "scf.yield"(%4) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc("loops.mlir":18:5)
    }) : (i1) -> tensor<4xf32> loc("loops.mlir":15:8)
    "func.return"(%8, %6) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, f32) -> () loc("loops.mlir":20:3)
  }) : () -> () loc("loops.mlir":1:1)
}) : () -> () loc("loops.mlir":0:0)
