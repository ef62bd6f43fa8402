"builtin.module"() ({
  "func.func"() <{function_type = (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32>, sym_name = "main"}> ({
  ^bb0(%arg4: memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %3 = "func.call"(%arg4) <{callee = @inc}> : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32> loc("@CASE@":10:5)
    %4 = "bufferization.clone"(%3) : (memref<3xi32>) -> memref<3xi32> loc("@CASE@":11:5)
    "func.return"(%4) : (memref<3xi32>) -> () loc("@CASE@":11:5)
  }) : () -> () loc("@CASE@":9:3)
  "func.func"() <{function_type = (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32>, sym_name = "inc"}> ({
  ^bb0(%arg0: memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":6:16)):
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("@CASE@":14:5)
    %1 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<3xi32> loc("@CASE@":14:5)
    "linalg.generic"(%arg0, %0, %1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: i32 loc("<stdin>":9:8), %arg2: i32 loc("<stdin>":9:18), %arg3: i32 loc("<stdin>":9:28)):
      %2 = "arith.addi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("@CASE@":14:5)
      "linalg.yield"(%2) : (i32) -> () loc("@CASE@":14:5)
    }) : (memref<3xi32, strided<[?], offset: ?>>, i32, memref<3xi32>) -> () loc("@CASE@":14:5)
    "func.return"(%1) : (memref<3xi32>) -> () loc("@CASE@":15:5)
  }) : () -> () loc("@CASE@":13:3)
}) : () -> () loc("<stdin>":0:0)
