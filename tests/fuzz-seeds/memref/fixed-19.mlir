"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg15: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:17), %arg16: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:36)):
    %23 = "arith.constant"() <{value = true}> : () -> i1 loc(unknown)
    %24 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc(unknown)
    %25 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32 loc(unknown)
    %26 = "arith.constant"() <{value = 1 : index}> : () -> index loc("fuzz.yaml":16:5)
    %27 = "arith.constant"() <{value = 2 : index}> : () -> index loc(unknown)
    %28 = "arith.constant"() <{value = 0 : index}> : () -> index loc("fuzz.yaml":16:5)
    %29 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32 loc(unknown)
    %30 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":4:5)
    "linalg.fill"(%29, %30) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg30: f32 loc(unknown), %arg31: f32 loc(unknown)):
      "linalg.yield"(%arg30) : (f32) -> () loc(unknown)
    }) : (f32, memref<4xf32>) -> () loc("fuzz.yaml":5:5)
    %31 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":6:5)
    "memref.copy"(%arg15, %31) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":6:5)
    %32 = "memref.cast"(%31) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)
    %33 = "func.call"(%32) <{callee = @inc}> : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)
    "scf.for"(%28, %27, %26) ({
    ^bb0(%arg23: index loc("fuzz.yaml":7:5)):
      "linalg.generic"(%33, %arg16, %33) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg27: f32 loc("<stdin>":11:10), %arg28: f32 loc("<stdin>":11:20), %arg29: f32 loc("<stdin>":11:30)):
        %55 = "arith.addf"(%arg27, %arg28) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":8:7)
        "linalg.yield"(%55) : (f32) -> () loc("fuzz.yaml":8:7)
      }) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":8:7)
      "linalg.generic"(%33, %25, %33) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg24: f32 loc("<stdin>":17:10), %arg25: f32 loc("<stdin>":17:21), %arg26: f32 loc("<stdin>":17:32)):
        %54 = "arith.mulf"(%arg24, %arg25) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":9:7)
        "linalg.yield"(%54) : (f32) -> () loc("fuzz.yaml":9:7)
      }) : (memref<4xf32, strided<[?], offset: ?>>, f32, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":9:7)
      "scf.yield"() : () -> () loc("fuzz.yaml":7:5)
    }) : (index, index, index) -> () loc("fuzz.yaml":7:5)
    %34 = "memref.subview"(%33) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32, strided<[?], offset: ?>>) -> memref<2xf32, strided<[?], offset: ?>> loc("fuzz.yaml":12:5)
    "linalg.generic"(%34, %24, %34) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg20: f32 loc("<stdin>":26:8), %arg21: f32 loc("<stdin>":26:19), %arg22: f32 loc("<stdin>":26:30)):
      %53 = "arith.addf"(%arg20, %arg21) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":13:5)
      "linalg.yield"(%53) : (f32) -> () loc("fuzz.yaml":13:5)
    }) : (memref<2xf32, strided<[?], offset: ?>>, f32, memref<2xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":13:5)
    %35 = "memref.subview"(%30) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>> loc("fuzz.yaml":14:5)
    "memref.copy"(%34, %35) : (memref<2xf32, strided<[?], offset: ?>>, memref<2xf32, strided<[1], offset: 1>>) -> () loc("fuzz.yaml":14:5)
    "linalg.generic"(%30, %arg15, %30) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg17: f32 loc("<stdin>":32:8), %arg18: f32 loc("<stdin>":32:19), %arg19: f32 loc("<stdin>":32:30)):
      %52 = "arith.addf"(%arg17, %arg18) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":15:5)
      "linalg.yield"(%52) : (f32) -> () loc("fuzz.yaml":15:5)
    }) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":15:5)
    %36:4 = "memref.extract_strided_metadata"(%33) : (memref<4xf32, strided<[?], offset: ?>>) -> (memref<f32>, index, index, index) loc("fuzz.yaml":16:5)
    %37 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xindex> loc("fuzz.yaml":16:5)
    %38 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xi1> loc("fuzz.yaml":16:5)
    %39 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1xindex> loc("fuzz.yaml":16:5)
    %40 = "memref.extract_aligned_pointer_as_index"(%31) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%40, %37, %28) <{nontemporal = false}> : (index, memref<2xindex>, index) -> () loc("fuzz.yaml":16:5)
    %41 = "memref.extract_aligned_pointer_as_index"(%36#0) : (memref<f32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%41, %37, %26) <{nontemporal = false}> : (index, memref<2xindex>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%23, %38, %28) <{nontemporal = false}> : (i1, memref<2xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%23, %38, %26) <{nontemporal = false}> : (i1, memref<2xi1>, index) -> () loc("fuzz.yaml":16:5)
    %42 = "memref.extract_aligned_pointer_as_index"(%30) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%42, %39, %28) <{nontemporal = false}> : (index, memref<1xindex>, index) -> () loc("fuzz.yaml":16:5)
    %43 = "memref.cast"(%37) : (memref<2xindex>) -> memref<?xindex> loc("fuzz.yaml":16:5)
    %44 = "memref.cast"(%38) : (memref<2xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    %45 = "memref.cast"(%39) : (memref<1xindex>) -> memref<?xindex> loc("fuzz.yaml":16:5)
    %46 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xi1> loc("fuzz.yaml":16:5)
    %47 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1xi1> loc("fuzz.yaml":16:5)
    %48 = "memref.cast"(%46) : (memref<2xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    %49 = "memref.cast"(%47) : (memref<1xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    "func.call"(%43, %45, %44, %48, %49) <{callee = @dealloc_helper}> : (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> () loc("fuzz.yaml":16:5)
    %50 = "memref.load"(%46, %28) <{nontemporal = false}> : (memref<2xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%50) ({
      "memref.dealloc"(%31) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %51 = "memref.load"(%46, %26) <{nontemporal = false}> : (memref<2xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%51) ({
      "memref.dealloc"(%36#0) : (memref<f32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%37) : (memref<2xindex>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%39) : (memref<1xindex>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%38) : (memref<2xi1>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%46) : (memref<2xi1>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%47) : (memref<1xi1>) -> () loc("fuzz.yaml":16:5)
    "func.return"(%30) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
  }) : () -> () loc("fuzz.yaml":3:3)
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>>, sym_name = "inc"}> ({
  ^bb0(%arg11: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":39:16)):
    %20 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":19:5)
    "linalg.generic"(%arg11, %20, %arg11) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg12: f32 loc("<stdin>":42:8), %arg13: f32 loc("<stdin>":42:18), %arg14: f32 loc("<stdin>":42:28)):
      %22 = "arith.addf"(%arg12, %arg13) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":19:5)
      "linalg.yield"(%22) : (f32) -> () loc("fuzz.yaml":19:5)
    }) : (memref<4xf32, strided<[?], offset: ?>>, f32, memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":19:5)
    %21 = "bufferization.clone"(%arg11) : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":39:16)
    "func.return"(%21) : (memref<4xf32, strided<[?], offset: ?>>) -> () loc("fuzz.yaml":20:5)
  }) : () -> () loc("fuzz.yaml":18:3)
  "func.func"() <{function_type = (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> (), sym_name = "dealloc_helper", sym_visibility = "private"}> ({
  ^bb0(%arg0: memref<?xindex> loc("<stdin>":0:0), %arg1: memref<?xindex> loc("<stdin>":0:0), %arg2: memref<?xi1> loc("<stdin>":0:0), %arg3: memref<?xi1> loc("<stdin>":0:0), %arg4: memref<?xi1> loc("<stdin>":0:0)):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index loc("<stdin>":0:0)
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index loc("<stdin>":0:0)
    %2 = "arith.constant"() <{value = true}> : () -> i1 loc("<stdin>":0:0)
    %3 = "arith.constant"() <{value = false}> : () -> i1 loc("<stdin>":0:0)
    %4 = "memref.dim"(%arg0, %0) : (memref<?xindex>, index) -> index loc("<stdin>":0:0)
    %5 = "memref.dim"(%arg1, %0) : (memref<?xindex>, index) -> index loc("<stdin>":0:0)
    "scf.for"(%0, %5, %1) ({
    ^bb0(%arg10: index loc("<stdin>":0:0)):
      "memref.store"(%3, %arg4, %arg10) <{nontemporal = false}> : (i1, memref<?xi1>, index) -> () loc("<stdin>":0:0)
      "scf.yield"() : () -> () loc("<stdin>":0:0)
    }) : (index, index, index) -> () loc("<stdin>":0:0)
    "scf.for"(%0, %4, %1) ({
    ^bb0(%arg5: index loc("<stdin>":0:0)):
      %6 = "memref.load"(%arg0, %arg5) <{nontemporal = false}> : (memref<?xindex>, index) -> index loc("<stdin>":0:0)
      %7 = "memref.load"(%arg2, %arg5) <{nontemporal = false}> : (memref<?xi1>, index) -> i1 loc("<stdin>":0:0)
      %8 = "scf.for"(%0, %5, %1, %2) ({
      ^bb0(%arg8: index loc("<stdin>":0:0), %arg9: i1 loc("<stdin>":0:0)):
        %14 = "memref.load"(%arg1, %arg8) <{nontemporal = false}> : (memref<?xindex>, index) -> index loc("<stdin>":0:0)
        %15 = "arith.cmpi"(%14, %6) <{predicate = 0 : i64}> : (index, index) -> i1 loc("<stdin>":0:0)
        "scf.if"(%15) ({
          %18 = "memref.load"(%arg4, %arg8) <{nontemporal = false}> : (memref<?xi1>, index) -> i1 loc("<stdin>":0:0)
          %19 = "arith.ori"(%18, %7) : (i1, i1) -> i1 loc("<stdin>":0:0)
          "memref.store"(%19, %arg4, %arg8) <{nontemporal = false}> : (i1, memref<?xi1>, index) -> () loc("<stdin>":0:0)
          "scf.yield"() : () -> () loc("<stdin>":0:0)
        }, {
        }) : (i1) -> () loc("<stdin>":0:0)
        %16 = "arith.cmpi"(%14, %6) <{predicate = 1 : i64}> : (index, index) -> i1 loc("<stdin>":0:0)
        %17 = "arith.andi"(%arg9, %16) : (i1, i1) -> i1 loc("<stdin>":0:0)
        "scf.yield"(%17) : (i1) -> () loc("<stdin>":0:0)
      }) : (index, index, index, i1) -> i1 loc("<stdin>":0:0)
      %9 = "scf.for"(%0, %arg5, %1, %8) ({
      ^bb0(%arg6: index loc("<stdin>":0:0), %arg7: i1 loc("<stdin>":0:0)):
        %11 = "memref.load"(%arg0, %arg6) <{nontemporal = false}> : (memref<?xindex>, index) -> index loc("<stdin>":0:0)
        %12 = "arith.cmpi"(%11, %6) <{predicate = 1 : i64}> : (index, index) -> i1 loc("<stdin>":0:0)
        %13 = "arith.andi"(%arg7, %12) : (i1, i1) -> i1 loc("<stdin>":0:0)
        "scf.yield"(%13) : (i1) -> () loc("<stdin>":0:0)
      }) : (index, index, index, i1) -> i1 loc("<stdin>":0:0)
      %10 = "arith.andi"(%9, %7) : (i1, i1) -> i1 loc("<stdin>":0:0)
      "memref.store"(%10, %arg3, %arg5) <{nontemporal = false}> : (i1, memref<?xi1>, index) -> () loc("<stdin>":0:0)
      "scf.yield"() : () -> () loc("<stdin>":0:0)
    }) : (index, index, index) -> () loc("<stdin>":0:0)
    "func.return"() : () -> () loc("<stdin>":0:0)
  }) : () -> () loc("<stdin>":0:0)
}) : () -> () loc("<stdin>":0:0)
