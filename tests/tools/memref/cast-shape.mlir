"builtin.module"() ({
  "func.func"() <{function_type = (memref<?xi32, strided<[?], offset: ?>>) -> i32, sym_name = "main"}> ({
  ^bb0(%arg0: memref<?xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 1 : index}> : () -> index loc("@CASE@":10:5)
    %2 = "memref.cast"(%arg0) : (memref<?xi32, strided<[?], offset: ?>>) -> memref<4xi32, strided<[?], offset: ?>> loc("@CASE@":10:5)
    %1 = "memref.load"(%2, %0) <{nontemporal = false}> : (memref<4xi32, strided<[?], offset: ?>>, index) -> i32 loc("@CASE@":10:5)
    "func.return"(%1) : (i32) -> () loc("@CASE@":11:5)
  }) : () -> () loc("@CASE@":9:3)
}) : () -> () loc("<stdin>":0:0)
