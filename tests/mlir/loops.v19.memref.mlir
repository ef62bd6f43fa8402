#loc2 = loc("loops.mlir":1:17)
#loc3 = loc("loops.mlir":1:36)
#loc9 = loc(unknown)
#loc10 = loc("loops.mlir":7:8)
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>, index) -> (memref<4xf32>, f32), sym_name = "main"}> ({
  ^bb0(%arg0: memref<4xf32, strided<[?], offset: ?>> loc("loops.mlir":1:17), %arg1: index loc("loops.mlir":1:36)):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index loc(#loc4)
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index loc(#loc5)
    %2 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc(#loc6)
    %3 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc(#loc7)
    "linalg.fill"(%2, %3) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg3: f32 loc(unknown), %arg4: f32 loc(unknown)):
      "linalg.yield"(%arg3) : (f32) -> () loc(#loc9)
    }) : (f32, memref<4xf32>) -> () loc(#loc8)
    %4 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc(#loc10)
    "memref.copy"(%arg0, %4) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc(#loc10)
    "scf.for"(%0, %arg1, %1) ({
    ^bb0(%arg2: index loc("loops.mlir":7:8)):
      %13 = "memref.load"(%4, %arg2) <{nontemporal = false}> : (memref<4xf32>, index) -> f32 loc(#loc11)
      %14 = "arith.addf"(%13, %2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc12)
      "memref.store"(%14, %4, %arg2) <{nontemporal = false}> : (f32, memref<4xf32>, index) -> () loc(#loc13)
      "scf.yield"() : () -> () loc(#loc10)
    }) : (index, index, index) -> () loc(#loc10)
    %5 = "memref.load"(%arg0, %0) <{nontemporal = false}> : (memref<4xf32, strided<[?], offset: ?>>, index) -> f32 loc(#loc14)
    %6 = "arith.cmpf"(%5, %2) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1 loc(#loc15)
    %7 = "arith.select"(%6, %4, %3) : (i1, memref<4xf32>, memref<4xf32>) -> memref<4xf32> loc(#loc16)
    %8 = "memref.extract_aligned_pointer_as_index"(%3) : (memref<4xf32>) -> index loc(#loc17)
    %9 = "memref.extract_aligned_pointer_as_index"(%7) : (memref<4xf32>) -> index loc(#loc17)
    %10 = "arith.cmpi"(%8, %9) <{predicate = 1 : i64}> : (index, index) -> i1 loc(#loc17)
    "scf.if"(%10) ({
      "memref.dealloc"(%3) : (memref<4xf32>) -> () loc(#loc17)
      "scf.yield"() : () -> () loc(#loc17)
    }, {
    }) : (i1) -> () loc(#loc17)
    %11 = "memref.extract_aligned_pointer_as_index"(%4) : (memref<4xf32>) -> index loc(#loc17)
    %12 = "arith.cmpi"(%11, %9) <{predicate = 1 : i64}> : (index, index) -> i1 loc(#loc17)
    "scf.if"(%12) ({
      "memref.dealloc"(%4) : (memref<4xf32>) -> () loc(#loc17)
      "scf.yield"() : () -> () loc(#loc17)
    }, {
    }) : (i1) -> () loc(#loc17)
    "func.return"(%7, %5) : (memref<4xf32>, f32) -> () loc(#loc17)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("loops.mlir":0:0)
#loc1 = loc("loops.mlir":1:1)
#loc4 = loc("loops.mlir":2:9)
#loc5 = loc("loops.mlir":3:9)
#loc6 = loc("loops.mlir":4:10)
#loc7 = loc("loops.mlir":5:8)
#loc8 = loc("loops.mlir":6:8)
#loc11 = loc("loops.mlir":8:10)
#loc12 = loc("loops.mlir":9:10)
#loc13 = loc("loops.mlir":10:10)
#loc14 = loc("loops.mlir":13:8)
#loc15 = loc("loops.mlir":14:8)
#loc16 = loc("loops.mlir":15:8)
#loc17 = loc("loops.mlir":20:3)

