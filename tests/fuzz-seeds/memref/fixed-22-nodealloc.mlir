"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg4: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:17), %arg5: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:36)):
    %2 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":4:5)
    %3 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":5:5)
    "linalg.fill"(%3, %2) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg20: f32 loc(unknown), %arg21: f32 loc(unknown)):
      "linalg.yield"(%arg20) : (f32) -> () loc(unknown)
    }) : (f32, memref<4xf32>) -> () loc("fuzz.yaml":5:5)
    %4 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":6:5)
    "memref.copy"(%arg4, %4) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":6:5)
    %5 = "memref.cast"(%4) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)
    %6 = "func.call"(%5) <{callee = @inc}> : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)
    %7 = "arith.constant"() <{value = 0 : index}> : () -> index loc("fuzz.yaml":7:5)
    %8 = "arith.constant"() <{value = 2 : index}> : () -> index loc("fuzz.yaml":7:5)
    %9 = "arith.constant"() <{value = 1 : index}> : () -> index loc("fuzz.yaml":7:5)
    %10 = "scf.for"(%7, %8, %9, %6) ({
    ^bb0(%arg12: index loc("fuzz.yaml":7:5), %arg13: memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)):
      "linalg.generic"(%arg13, %arg5, %arg13) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg17: f32 loc("<stdin>":11:10), %arg18: f32 loc("<stdin>":11:20), %arg19: f32 loc("<stdin>":11:30)):
        %19 = "arith.addf"(%arg17, %arg18) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":8:7)
        "linalg.yield"(%19) : (f32) -> () loc("fuzz.yaml":8:7)
      }) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":8:7)
      %17 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":9:7)
      "linalg.generic"(%arg13, %17, %arg13) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg14: f32 loc("<stdin>":17:10), %arg15: f32 loc("<stdin>":17:21), %arg16: f32 loc("<stdin>":17:32)):
        %18 = "arith.mulf"(%arg14, %arg15) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":9:7)
        "linalg.yield"(%18) : (f32) -> () loc("fuzz.yaml":9:7)
      }) : (memref<4xf32, strided<[?], offset: ?>>, f32, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":9:7)
      "scf.yield"(%arg13) : (memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":10:7)
    }) : (index, index, index, memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":7:5)
    %11 = "memref.subview"(%10) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32, strided<[?], offset: ?>>) -> memref<2xf32, strided<[?], offset: ?>> loc("fuzz.yaml":12:5)
    %12 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":13:5)
    "linalg.generic"(%11, %12, %11) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg9: f32 loc("<stdin>":26:8), %arg10: f32 loc("<stdin>":26:19), %arg11: f32 loc("<stdin>":26:30)):
      %16 = "arith.addf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":13:5)
      "linalg.yield"(%16) : (f32) -> () loc("fuzz.yaml":13:5)
    }) : (memref<2xf32, strided<[?], offset: ?>>, f32, memref<2xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":13:5)
    %13 = "memref.subview"(%2) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>> loc("fuzz.yaml":14:5)
    "memref.copy"(%11, %13) : (memref<2xf32, strided<[?], offset: ?>>, memref<2xf32, strided<[1], offset: 1>>) -> () loc("fuzz.yaml":14:5)
    "linalg.generic"(%2, %arg4, %2) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg6: f32 loc("<stdin>":32:8), %arg7: f32 loc("<stdin>":32:19), %arg8: f32 loc("<stdin>":32:30)):
      %15 = "arith.addf"(%arg6, %arg7) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":15:5)
      "linalg.yield"(%15) : (f32) -> () loc("fuzz.yaml":15:5)
    }) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":15:5)
    %14 = "memref.cast"(%2) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":4:5)
    "func.return"(%2) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
  }) : () -> () loc("fuzz.yaml":3:3)
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>>, sym_name = "inc"}> ({
  ^bb0(%arg0: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":39:16)):
    %0 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":19:5)
    "linalg.generic"(%arg0, %0, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg1: f32 loc("<stdin>":42:8), %arg2: f32 loc("<stdin>":42:18), %arg3: f32 loc("<stdin>":42:28)):
      %1 = "arith.addf"(%arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":19:5)
      "linalg.yield"(%1) : (f32) -> () loc("fuzz.yaml":19:5)
    }) : (memref<4xf32, strided<[?], offset: ?>>, f32, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":19:5)
    "func.return"(%arg0) : (memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":20:5)
  }) : () -> () loc("fuzz.yaml":18:3)
}) : () -> () loc("<stdin>":0:0)
