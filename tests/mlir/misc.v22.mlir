#loc2 = loc("misc.mlir":6:20)
#loc6 = loc("misc.mlir":10:10)
#loc7 = loc("misc.mlir":10:19)
#loc12 = loc("misc.mlir":16:19)
#loc13 = loc("misc.mlir":16:27)
#loc14 = loc("misc.mlir":16:46)
#loc17 = loc("misc.mlir":18:8)
#map = affine_map<(d0) -> (d0)>
#set = affine_set<(d0) : (d0 - 1 >= 0)>
"builtin.module"() ({
  "func.func"() <{arg_attrs = [{bufferization.writable = false}], function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "twice"}> ({
  ^bb0(%arg3: tensor<4xf32> loc("misc.mlir":6:20)):
    %3 = "tensor.empty"() : () -> tensor<4xf32> loc(#loc21)
    %4 = "linalg.generic"(%arg3, %3) <{indexing_maps = [#map, #map], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg4: f32 loc("misc.mlir":10:10), %arg5: f32 loc("misc.mlir":10:19)):
      %5 = "arith.addf"(%arg4, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc8)
      "linalg.yield"(%5) : (f32) -> () loc(#loc9)
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#loc22)
    "func.return"(%4) : (tensor<4xf32>) -> () loc(#loc10)
  }) : () -> () loc(#loc1)
  "func.func"() <{function_type = (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "pick"}> ({
  ^bb0(%arg0: i1 loc("misc.mlir":16:19), %arg1: tensor<4xf32> loc("misc.mlir":16:27), %arg2: tensor<4xf32> loc("misc.mlir":16:46)):
    "cf.cond_br"(%arg0, %arg1, %arg2)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, tensor<4xf32>, tensor<4xf32>) -> () loc(#loc23)
  ^bb1(%0: tensor<4xf32> loc("misc.mlir":18:8)):  // 2 preds: ^bb0, ^bb0
    %1 = "arith.constant"() <{value = dense_resource<blob1> : tensor<2xi32>}> : () -> tensor<2xi32> loc(#loc18)
    %2:2 = "test.two"(%0) {empty = {}, set = #set, tag = "x\0Ay"} : (tensor<4xf32>) -> (tensor<4xf32>, i32) loc(#loc24)
    "test.sink"(%2#1, %1) : (i32, tensor<2xi32>) -> () loc(#loc19)
    "func.return"(%2#0) : (tensor<4xf32>) -> () loc(#loc20)
  }) : () -> () loc(#loc11)
}) {test.n = 3 : i64, test.note = "a \22quoted\22 note"} : () -> () loc(#loc)
#loc = loc("misc.mlir":5:1)
#loc1 = loc("misc.mlir":6:3)
#loc3 = loc("misc.mlir":8:10)
#loc4 = loc("misc.mlir":9:10)
#loc5 = loc("other.mlir":1:1)
#loc8 = loc("misc.mlir":11:12)
#loc9 = loc("misc.mlir":12:7)
#loc10 = loc("misc.mlir":14:5)
#loc11 = loc("misc.mlir":16:3)
#loc15 = loc("inner.mlir":2:3)
#loc16 = loc("misc.mlir":17:5)
#loc18 = loc(unknown)
#loc19 = loc("misc.mlir":21:5)
#loc20 = loc("misc.mlir":22:5)
#loc21 = loc("empty"(#loc3))
#loc22 = loc(fused[#loc4, #loc5])
#loc23 = loc(callsite(#loc15 at #loc16))
#loc24 = loc(fused<"meta">[#loc19])

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}

