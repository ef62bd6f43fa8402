"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("small.yaml":4:5)
    "linalg.generic"(%arg0, %arg0, %0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg4: f32 loc("<stdin>":3:8), %arg5: f32 loc("<stdin>":3:18), %arg6: f32 loc("<stdin>":3:28)):
      %2 = "arith.addf"(%arg4, %arg5) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("small.yaml":4:5)
      "linalg.yield"(%2) : (f32) -> () loc("small.yaml":4:5)
    }) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("small.yaml":4:5)
    "linalg.generic"(%0, %arg0, %0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: f32 loc("<stdin>":8:8), %arg2: f32 loc("<stdin>":8:18), %arg3: f32 loc("<stdin>":8:28)):
      %1 = "arith.addf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("small.yaml":5:5)
      "linalg.yield"(%1) : (f32) -> () loc("small.yaml":5:5)
    }) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("small.yaml":5:5)
    "func.return"(%0) : (memref<4xf32>) -> () loc("small.yaml":6:5)
  }) : () -> () loc("small.yaml":3:3)
}) : () -> () loc("<stdin>":0:0)
