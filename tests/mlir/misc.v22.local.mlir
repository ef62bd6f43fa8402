"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.writable = false}], function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "twice"}> ({
  ^bb0(%arg3: tensor<4xf32> loc("misc.mlir":6:20)):
    %3 = "tensor.empty"() : () -> tensor<4xf32> loc("empty"("misc.mlir":8:10))
    %4 = "linalg.generic"(%arg3, %3) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg4: f32 loc("misc.mlir":10:10), %arg5: f32 loc("misc.mlir":10:19)):
      %5 = "arith.addf"(%arg4, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("misc.mlir":11:12)
      "linalg.yield"(%5) : (f32) -> () loc("misc.mlir":12:7)
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(fused["misc.mlir":9:10, "other.mlir":1:1])
    "func.return"(%4) : (tensor<4xf32>) -> () loc("misc.mlir":14:5)
  }) : () -> () loc("misc.mlir":6:3)
  "func.func"() <{function_type = (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "pick"}> ({
  ^bb0(%arg0: i1 loc("misc.mlir":16:19), %arg1: tensor<4xf32> loc("misc.mlir":16:27), %arg2: tensor<4xf32> loc("misc.mlir":16:46)):
    "cf.cond_br"(%arg0, %arg1, %arg2)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, tensor<4xf32>, tensor<4xf32>) -> () loc(callsite("inner.mlir":2:3 at "misc.mlir":17:5))
  ^bb1(%0: tensor<4xf32> loc("misc.mlir":18:8)):  // 2 preds: ^bb0, ^bb0
    %1 = "arith.constant"() <{value = dense_resource<blob1> : tensor<2xi32>}> : () -> tensor<2xi32> loc(unknown)
    %2:2 = "test.two"(%0) {empty = {}, set = affine_set<(d0) : (d0 - 1 >= 0)>, tag = "x\0Ay"} : (tensor<4xf32>) -> (tensor<4xf32>, i32) loc(fused<"meta">["misc.mlir":21:5])
    "test.sink"(%2#1, %1) : (i32, tensor<2xi32>) -> () loc("misc.mlir":21:5)
    "func.return"(%2#0) : (tensor<4xf32>) -> () loc("misc.mlir":22:5)
  }) : () -> () loc("misc.mlir":16:3)
}) {test.n = 3 : i64, test.note = "a \22quoted\22 note"} : () -> () loc("misc.mlir":5:1)
