"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xi32, strided<[?], offset: ?>>) -> memref<2xi32, strided<[?], offset: ?>>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<4xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc("@CASE@":12:5)
    %4:4 = "memref.extract_strided_metadata"(%arg0) : (memref<4xi32, strided<[?], offset: ?>>) -> (memref<i32>, index, index, index) loc("@CASE@":11:5)
    %5 = "arith.constant"() <{value = 3 : index}> : () -> index loc("@CASE@":11:5)
    %6 = "arith.addi"(%4#1, %5) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index loc("@CASE@":11:5)
    %1 = "memref.reinterpret_cast"(%4#0, %6) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<i32>, index) -> memref<2xi32, strided<[1], offset: ?>> loc("@CASE@":11:5)
    "linalg.generic"(%1, %0, %1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: i32 loc("<stdin>":5:8), %arg2: i32 loc("<stdin>":5:18), %arg3: i32 loc("<stdin>":5:28)):
      %3 = "arith.addi"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("@CASE@":12:5)
      "linalg.yield"(%3) : (i32) -> () loc("@CASE@":12:5)
    }) : (memref<2xi32, strided<[1], offset: ?>>, i32, memref<2xi32, strided<[1], offset: ?>>) -> () loc("@CASE@":12:5)
    %7 = "memref.cast"(%1) : (memref<2xi32, strided<[1], offset: ?>>) -> memref<2xi32, strided<[?], offset: ?>> loc("@CASE@":11:5)
    %2 = "bufferization.clone"(%7) : (memref<2xi32, strided<[?], offset: ?>>) -> memref<2xi32, strided<[?], offset: ?>> loc("@CASE@":11:5)
    "func.return"(%2) : (memref<2xi32, strided<[?], offset: ?>>) -> () loc("@CASE@":13:5)
  }) : () -> () loc("@CASE@":10:3)
}) : () -> () loc("<stdin>":0:0)
