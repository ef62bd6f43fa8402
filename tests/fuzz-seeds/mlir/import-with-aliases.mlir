#loc2 = loc("/tmp/wtf/x.mlir":1:17)
#loc3 = loc("/tmp/wtf/x.mlir":1:36)
#loc6 = loc("/tmp/wtf/x.mlir":5:8)
#loc7 = loc("/tmp/wtf/x.mlir":5:18)
#loc8 = loc("/tmp/wtf/x.mlir":5:28)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xi32> loc("/tmp/wtf/x.mlir":1:17), %arg1: tensor<2xi32> loc("/tmp/wtf/x.mlir":1:36)):
    %0 = "tensor.insert_slice"(%arg1, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (tensor<2xi32>, tensor<4xi32>) -> tensor<4xi32> loc(#loc4)
    %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc(#loc5)
    %2 = "linalg.generic"(%arg0, %1, %arg0) <{indexing_maps = [#map, #map1, #map], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg2: i32 loc("/tmp/wtf/x.mlir":5:8), %arg3: i32 loc("/tmp/wtf/x.mlir":5:18), %arg4: i32 loc("/tmp/wtf/x.mlir":5:28)):
      %3 = "arith.addi"(%arg2, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(#loc5)
      "linalg.yield"(%3) : (i32) -> () loc(#loc5)
    }) : (tensor<4xi32>, i32, tensor<4xi32>) -> tensor<4xi32> loc(#loc5)
    "func.return"(%0, %2) : (tensor<4xi32>, tensor<4xi32>) -> () loc(#loc9)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("/tmp/wtf/x.mlir":0:0)
#loc1 = loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":6:3)
#loc4 = loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":7:5)
#loc5 = loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":8:5)
#loc9 = loc("tests/fuzz-seeds/loader/alias-insert-slice-dest-read-later.yaml":9:5)

