"builtin.module"() ({
  "func.func"() <{function_type = (memref<2x3xi32, strided<[?, ?], offset: ?>>) -> (i32, i32), sym_name = "main"}> ({
  ^bb0(%arg0: memref<2x3xi32, strided<[?, ?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index loc("@CASE@":12:5)
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index loc(unknown)
    %2 = "arith.constant"() <{value = 2 : index}> : () -> index loc("@CASE@":11:5)
    %5 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1, 0>, static_sizes = array<i64: 1, 3>, static_strides = array<i64: 1, 1>}> : (memref<2x3xi32, strided<[?, ?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>> loc("@CASE@":11:5)
    %3 = "memref.load"(%5, %2) <{nontemporal = false}> : (memref<3xi32, strided<[?], offset: ?>>, index) -> i32 loc("@CASE@":11:5)
    %6 = "memref.dim"(%arg0, %1) : (memref<2x3xi32, strided<[?, ?], offset: ?>>, index) -> index loc("@CASE@":12:5)
    %7 = "arith.subi"(%6, %1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index loc("@CASE@":12:5)
    %8 = "memref.subview"(%arg0, %7, %1) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>, static_offsets = array<i64: 0, 1>, static_sizes = array<i64: 1, -9223372036854775808>, static_strides = array<i64: 1, -9223372036854775808>}> : (memref<2x3xi32, strided<[?, ?], offset: ?>>, index, index) -> memref<1x?xi32, strided<[?, ?], offset: ?>> loc("@CASE@":12:5)
    %4 = "memref.load"(%8, %0, %0) <{nontemporal = false}> : (memref<1x?xi32, strided<[?, ?], offset: ?>>, index, index) -> i32 loc("@CASE@":12:5)
    "func.return"(%3, %4) : (i32, i32) -> () loc("@CASE@":13:5)
  }) : () -> () loc("@CASE@":10:3)
}) : () -> () loc("<stdin>":0:0)
