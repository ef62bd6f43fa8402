#loc2 = loc("loops.mlir":1:17)
#loc3 = loc("loops.mlir":1:36)
#loc9 = loc(unknown)
#loc11 = loc("loops.mlir":7:16)
#loc12 = loc("loops.mlir":7:50)
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.access = "read"}, {}], function_type = (tensor<4xf32>, index) -> (tensor<4xf32>, f32), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32> loc("loops.mlir":1:17), %arg1: index loc("loops.mlir":1:36)):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index loc(#loc4)
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index loc(#loc5)
    %2 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc(#loc6)
    %3 = "tensor.empty"() : () -> tensor<4xf32> loc(#loc7)
    %4 = "linalg.fill"(%2, %3) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg4: f32 loc(unknown), %arg5: f32 loc(unknown)):
      "linalg.yield"(%arg4) : (f32) -> () loc(#loc9)
    }) {__inplace_operands_attr__ = ["none", "true"]} : (f32, tensor<4xf32>) -> tensor<4xf32> loc(#loc8)
    %5 = "scf.for"(%0, %arg1, %1, %arg0) ({
    ^bb0(%arg2: index loc("loops.mlir":7:16), %arg3: tensor<4xf32> loc("loops.mlir":7:50)):
      %9 = "tensor.extract"(%arg3, %arg2) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, index) -> f32 loc(#loc13)
      %10 = "arith.addf"(%9, %2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc14)
      %11 = "tensor.insert"(%10, %arg3, %arg2) {__inplace_operands_attr__ = ["none", "true", "none"]} : (f32, tensor<4xf32>, index) -> tensor<4xf32> loc(#loc15)
      "scf.yield"(%11) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc(#loc16)
    }) {__inplace_operands_attr__ = ["none", "none", "none", "false"]} : (index, index, index, tensor<4xf32>) -> tensor<4xf32> loc(#loc10)
    %6 = "tensor.extract"(%arg0, %0) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, index) -> f32 loc(#loc17)
    %7 = "arith.cmpf"(%6, %2) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1 loc(#loc18)
    %8 = "scf.if"(%7) ({
      "scf.yield"(%5) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc(#loc20)
    }, {
      "scf.yield"(%4) {__inplace_operands_attr__ = ["true"]} : (tensor<4xf32>) -> () loc(#loc21)
    }) : (i1) -> tensor<4xf32> loc(#loc19)
    "func.return"(%8, %6) {__inplace_operands_attr__ = ["true", "none"]} : (tensor<4xf32>, f32) -> () loc(#loc22)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("loops.mlir":0:0)
#loc1 = loc("loops.mlir":1:1)
#loc4 = loc("loops.mlir":2:9)
#loc5 = loc("loops.mlir":3:9)
#loc6 = loc("loops.mlir":4:10)
#loc7 = loc("loops.mlir":5:8)
#loc8 = loc("loops.mlir":6:8)
#loc10 = loc("loops.mlir":7:8)
#loc13 = loc("loops.mlir":8:10)
#loc14 = loc("loops.mlir":9:10)
#loc15 = loc("loops.mlir":10:10)
#loc16 = loc("loops.mlir":11:5)
#loc17 = loc("loops.mlir":13:8)
#loc18 = loc("loops.mlir":14:8)
#loc19 = loc("loops.mlir":15:8)
#loc20 = loc("loops.mlir":16:5)
#loc21 = loc("loops.mlir":18:5)
#loc22 = loc("loops.mlir":20:3)

