"builtin.module"() ({
  "func.func"() <{function_type = (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 10 : i32}> : () -> i32 loc("@CASE@":9:5)
    %1 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<3xi32> loc("@CASE@":9:5)
    "linalg.generic"(%arg0, %0, %1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg4: i32 loc("<stdin>":4:8), %arg5: i32 loc("<stdin>":4:18), %arg6: i32 loc("<stdin>":4:28)):
      %4 = "arith.addi"(%arg4, %arg5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("@CASE@":9:5)
      "linalg.yield"(%4) : (i32) -> () loc("@CASE@":9:5)
    }) : (memref<3xi32, strided<[?], offset: ?>>, i32, memref<3xi32>) -> () loc("@CASE@":9:5)
    "linalg.generic"(%arg0, %1, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: i32 loc("<stdin>":9:8), %arg2: i32 loc("<stdin>":9:18), %arg3: i32 loc("<stdin>":9:28)):
      %3 = "arith.addi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("@CASE@":10:5)
      "linalg.yield"(%3) : (i32) -> () loc("@CASE@":10:5)
    }) : (memref<3xi32, strided<[?], offset: ?>>, memref<3xi32>, memref<3xi32, strided<[?], offset: ?>>) -> () loc("@CASE@":10:5)
    %2 = "bufferization.clone"(%arg0) : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)
    "bufferization.dealloc"(%1, %0) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<3xi32>, i32) -> () loc("@CASE@":7:5)
    "func.return"(%2) : (memref<3xi32, strided<[?], offset: ?>>) -> () loc("@CASE@":11:5)
  }) : () -> () loc("@CASE@":8:3)
}) : () -> () loc("<stdin>":0:0)
