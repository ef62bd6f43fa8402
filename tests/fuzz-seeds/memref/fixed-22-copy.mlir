"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg15: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:17), %arg16: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":1:36)):
    %23 = "arith.constant"() <{value = 6 : index}> : () -> index loc("fuzz.yaml":16:5)
    %24 = "arith.constant"() <{value = 5 : index}> : () -> index loc("fuzz.yaml":16:5)
    %25 = "arith.constant"() <{value = 4 : index}> : () -> index loc("fuzz.yaml":16:5)
    %26 = "arith.constant"() <{value = 3 : index}> : () -> index loc("fuzz.yaml":16:5)
    %27 = "arith.constant"() <{value = true}> : () -> i1 loc(unknown)
    %28 = "arith.constant"() <{value = false}> : () -> i1 loc(unknown)
    %29 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":13:5)
    %30 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32 loc(unknown)
    %31 = "arith.constant"() <{value = 1 : index}> : () -> index loc("fuzz.yaml":7:5)
    %32 = "arith.constant"() <{value = 2 : index}> : () -> index loc("fuzz.yaml":7:5)
    %33 = "arith.constant"() <{value = 0 : index}> : () -> index loc("fuzz.yaml":7:5)
    %34 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":5:5)
    %35 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":5:5)
    "linalg.fill"(%34, %35) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg32: f32 loc(unknown), %arg33: f32 loc(unknown)):
      "linalg.yield"(%arg32) : (f32) -> () loc(unknown)
    }) : (f32, memref<4xf32>) -> () loc("fuzz.yaml":5:5)
    %36 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":6:5)
    "memref.copy"(%arg15, %36) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":6:5)
    %37 = "memref.cast"(%36) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>> loc("fuzz.yaml":6:5)
    %38 = "func.call"(%37) <{callee = @inc}> : (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> loc("fuzz.yaml":6:5)
    %39 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":7:5)
    "memref.copy"(%38, %39) : (memref<4xf32>, memref<4xf32>) -> () loc("fuzz.yaml":7:5)
    %40:2 = "scf.for"(%33, %32, %31, %39, %28) ({
    ^bb0(%arg23: index loc("fuzz.yaml":7:5), %arg24: memref<4xf32> loc("fuzz.yaml":7:5), %arg25: i1 loc("fuzz.yaml":7:5)):
      %75 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":8:7)
      "linalg.generic"(%arg24, %arg16, %75) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg29: f32 loc("<stdin>":11:10), %arg30: f32 loc("<stdin>":11:20), %arg31: f32 loc("<stdin>":11:30)):
        %79 = "arith.addf"(%arg29, %arg30) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":8:7)
        "linalg.yield"(%79) : (f32) -> () loc("fuzz.yaml":8:7)
      }) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":8:7)
      %76 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":9:7)
      "linalg.generic"(%75, %30, %76) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg26: f32 loc("<stdin>":17:10), %arg27: f32 loc("<stdin>":17:21), %arg28: f32 loc("<stdin>":17:32)):
        %78 = "arith.mulf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":9:7)
        "linalg.yield"(%78) : (f32) -> () loc("fuzz.yaml":9:7)
      }) : (memref<4xf32>, f32, memref<4xf32>) -> () loc("fuzz.yaml":9:7)
      %77:4 = "memref.extract_strided_metadata"(%arg24) : (memref<4xf32>) -> (memref<f32>, index, index, index) loc("fuzz.yaml":10:7)
      "scf.if"(%arg25) ({
        "memref.dealloc"(%77#0) : (memref<f32>) -> () loc("fuzz.yaml":10:7)
        "scf.yield"() : () -> () loc("fuzz.yaml":10:7)
      }, {
      }) : (i1) -> () loc("fuzz.yaml":10:7)
      "memref.dealloc"(%75) : (memref<4xf32>) -> () loc("fuzz.yaml":10:7)
      "scf.yield"(%76, %27) : (memref<4xf32>, i1) -> () loc("fuzz.yaml":10:7)
    }) : (index, index, index, memref<4xf32>, i1) -> (memref<4xf32>, i1) loc("fuzz.yaml":7:5)
    %41 = "memref.subview"(%40#0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1]>> loc("fuzz.yaml":12:5)
    %42 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xf32> loc("fuzz.yaml":13:5)
    "linalg.generic"(%41, %29, %42) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg20: f32 loc("<stdin>":26:8), %arg21: f32 loc("<stdin>":26:19), %arg22: f32 loc("<stdin>":26:30)):
      %74 = "arith.addf"(%arg20, %arg21) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":13:5)
      "linalg.yield"(%74) : (f32) -> () loc("fuzz.yaml":13:5)
    }) : (memref<2xf32, strided<[1]>>, f32, memref<2xf32>) -> () loc("fuzz.yaml":13:5)
    %43 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":14:5)
    "memref.copy"(%35, %43) : (memref<4xf32>, memref<4xf32>) -> () loc("fuzz.yaml":14:5)
    %44 = "memref.subview"(%43) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>> loc("fuzz.yaml":14:5)
    "memref.copy"(%42, %44) : (memref<2xf32>, memref<2xf32, strided<[1], offset: 1>>) -> () loc("fuzz.yaml":14:5)
    %45 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":15:5)
    "linalg.generic"(%43, %arg15, %45) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg17: f32 loc("<stdin>":32:8), %arg18: f32 loc("<stdin>":32:19), %arg19: f32 loc("<stdin>":32:30)):
      %73 = "arith.addf"(%arg17, %arg18) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":15:5)
      "linalg.yield"(%73) : (f32) -> () loc("fuzz.yaml":15:5)
    }) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> () loc("fuzz.yaml":15:5)
    %46:4 = "memref.extract_strided_metadata"(%38) : (memref<4xf32>) -> (memref<f32>, index, index, index) loc("fuzz.yaml":16:5)
    %47:4 = "memref.extract_strided_metadata"(%40#0) : (memref<4xf32>) -> (memref<f32>, index, index, index) loc("fuzz.yaml":16:5)
    %48 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<7xindex> loc("fuzz.yaml":16:5)
    %49 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<7xi1> loc("fuzz.yaml":16:5)
    %50 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1xindex> loc("fuzz.yaml":16:5)
    %51 = "memref.extract_aligned_pointer_as_index"(%35) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%51, %48, %33) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %52 = "memref.extract_aligned_pointer_as_index"(%36) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%52, %48, %31) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %53 = "memref.extract_aligned_pointer_as_index"(%46#0) : (memref<f32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%53, %48, %32) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %54 = "memref.extract_aligned_pointer_as_index"(%39) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%54, %48, %26) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %55 = "memref.extract_aligned_pointer_as_index"(%47#0) : (memref<f32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%55, %48, %25) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %56 = "memref.extract_aligned_pointer_as_index"(%42) : (memref<2xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%56, %48, %24) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    %57 = "memref.extract_aligned_pointer_as_index"(%43) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%57, %48, %23) <{nontemporal = false}> : (index, memref<7xindex>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %33) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %31) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %32) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %26) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%40#1, %49, %25) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %24) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    "memref.store"(%27, %49, %23) <{nontemporal = false}> : (i1, memref<7xi1>, index) -> () loc("fuzz.yaml":16:5)
    %58 = "memref.extract_aligned_pointer_as_index"(%45) : (memref<4xf32>) -> index loc("fuzz.yaml":16:5)
    "memref.store"(%58, %50, %33) <{nontemporal = false}> : (index, memref<1xindex>, index) -> () loc("fuzz.yaml":16:5)
    %59 = "memref.cast"(%48) : (memref<7xindex>) -> memref<?xindex> loc("fuzz.yaml":16:5)
    %60 = "memref.cast"(%49) : (memref<7xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    %61 = "memref.cast"(%50) : (memref<1xindex>) -> memref<?xindex> loc("fuzz.yaml":16:5)
    %62 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<7xi1> loc("fuzz.yaml":16:5)
    %63 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1xi1> loc("fuzz.yaml":16:5)
    %64 = "memref.cast"(%62) : (memref<7xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    %65 = "memref.cast"(%63) : (memref<1xi1>) -> memref<?xi1> loc("fuzz.yaml":16:5)
    "func.call"(%59, %61, %60, %64, %65) <{callee = @dealloc_helper}> : (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> () loc("fuzz.yaml":16:5)
    %66 = "memref.load"(%62, %33) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%66) ({
      "memref.dealloc"(%35) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %67 = "memref.load"(%62, %31) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%67) ({
      "memref.dealloc"(%36) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %68 = "memref.load"(%62, %32) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%68) ({
      "memref.dealloc"(%46#0) : (memref<f32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %69 = "memref.load"(%62, %26) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%69) ({
      "memref.dealloc"(%39) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %70 = "memref.load"(%62, %25) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%70) ({
      "memref.dealloc"(%47#0) : (memref<f32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %71 = "memref.load"(%62, %24) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%71) ({
      "memref.dealloc"(%42) : (memref<2xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    %72 = "memref.load"(%62, %23) <{nontemporal = false}> : (memref<7xi1>, index) -> i1 loc("fuzz.yaml":16:5)
    "scf.if"(%72) ({
      "memref.dealloc"(%43) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
      "scf.yield"() : () -> () loc("fuzz.yaml":16:5)
    }, {
    }) : (i1) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%48) : (memref<7xindex>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%50) : (memref<1xindex>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%49) : (memref<7xi1>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%62) : (memref<7xi1>) -> () loc("fuzz.yaml":16:5)
    "memref.dealloc"(%63) : (memref<1xi1>) -> () loc("fuzz.yaml":16:5)
    "func.return"(%45) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
  }) : () -> () loc("fuzz.yaml":3:3)
  "func.func"() <{function_type = (memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>, sym_name = "inc"}> ({
  ^bb0(%arg11: memref<4xf32, strided<[?], offset: ?>> loc("<stdin>":39:16)):
    %20 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("fuzz.yaml":19:5)
    %21 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":19:5)
    "linalg.generic"(%arg11, %20, %21) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg12: f32 loc("<stdin>":42:8), %arg13: f32 loc("<stdin>":42:18), %arg14: f32 loc("<stdin>":42:28)):
      %22 = "arith.addf"(%arg12, %arg13) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("fuzz.yaml":19:5)
      "linalg.yield"(%22) : (f32) -> () loc("fuzz.yaml":19:5)
    }) : (memref<4xf32, strided<[?], offset: ?>>, f32, memref<4xf32>) -> () loc("fuzz.yaml":19:5)
    "func.return"(%21) : (memref<4xf32>) -> () loc("fuzz.yaml":20:5)
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
