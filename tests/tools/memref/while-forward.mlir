"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() {value = 1 : index} : () -> index loc("@CASE@":17:7)
    %1 = "arith.constant"() {value = 3 : index} : () -> index loc("@CASE@":13:7)
    %2 = "arith.constant"() {value = 0 : index} : () -> index loc("@CASE@":11:5)
    %3 = "bufferization.clone"(%arg0) : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)
    %4:2 = "scf.while"(%3, %2) ({
    ^bb0(%arg1: memref<3xi32, strided<[?], offset: ?>> loc("@CASE@":12:5), %arg2: index loc("@CASE@":12:5)):
      %5 = "arith.cmpi"(%arg2, %1) {predicate = 2 : i64} : (index, index) -> i1 loc("@CASE@":13:7)
      %6 = "memref.alloc"() {alignment = 64 : i64, operand_segment_sizes = array<i32: 0, 0>} : () -> memref<3xi32> loc("@CASE@":14:7)
      "memref.copy"(%arg1, %6) : (memref<3xi32, strided<[?], offset: ?>>, memref<3xi32>) -> () loc("@CASE@":14:7)
      "memref.dealloc"(%arg1) : (memref<3xi32, strided<[?], offset: ?>>) -> () loc("@CASE@":12:5)
      %7 = "bufferization.clone"(%6) : (memref<3xi32>) -> memref<3xi32> loc("@CASE@":14:7)
      "memref.dealloc"(%6) : (memref<3xi32>) -> () loc("@CASE@":14:7)
      "scf.condition"(%5, %7, %arg2) : (i1, memref<3xi32>, index) -> () loc("@CASE@":14:7)
    }, {
    ^bb0(%arg1: memref<3xi32> loc("@CASE@":12:5), %arg2: index loc("@CASE@":12:5)):
      %5 = "memref.alloc"() {alignment = 64 : i64, operand_segment_sizes = array<i32: 0, 0>} : () -> memref<3xi32> loc("@CASE@":16:7)
      "linalg.generic"(%arg1, %arg1, %5) ({
      ^bb0(%arg3: i32 loc("<stdin>":10:10), %arg4: i32 loc("<stdin>":10:20), %arg5: i32 loc("<stdin>":10:30)):
        %9 = "arith.addi"(%arg3, %arg4) : (i32, i32) -> i32 loc("@CASE@":16:7)
        "linalg.yield"(%9) : (i32) -> () loc("@CASE@":16:7)
      }) {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operand_segment_sizes = array<i32: 2, 1>} : (memref<3xi32>, memref<3xi32>, memref<3xi32>) -> () loc("@CASE@":16:7)
      "memref.dealloc"(%arg1) : (memref<3xi32>) -> () loc("@CASE@":12:5)
      %6 = "arith.addi"(%arg2, %0) : (index, index) -> index loc("@CASE@":17:7)
      %7 = "memref.cast"(%5) : (memref<3xi32>) -> memref<3xi32, strided<[?], offset: ?>> loc("@CASE@":16:7)
      %8 = "bufferization.clone"(%7) : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>> loc("@CASE@":16:7)
      "memref.dealloc"(%5) : (memref<3xi32>) -> () loc("@CASE@":16:7)
      "scf.yield"(%8, %6) : (memref<3xi32, strided<[?], offset: ?>>, index) -> () loc("@CASE@":18:7)
    }) : (memref<3xi32, strided<[?], offset: ?>>, index) -> (memref<3xi32>, index) loc("@CASE@":12:5)
    "func.return"(%4#0, %4#1) : (memref<3xi32>, index) -> () loc("@CASE@":22:5)
  }) {function_type = (memref<3xi32, strided<[?], offset: ?>>) -> (memref<3xi32>, index), sym_name = "main"} : () -> () loc("@CASE@":10:3)
}) : () -> () loc("<stdin>":0:0)
