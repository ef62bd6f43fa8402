#!/bin/sh
# memref-hoisted.sh [mlir-opt options, ignored]: a fake bufferization
# pipeline for cases/external/mlir/pipeline-forall-hoisted-temp.yaml
# (llvm#90735's mistake on memrefs): the memref program mlir-opt-22 emits
# for that forall, with the temporary of %t allocated once before the
# forall and freed after it, so that every trip computes its row into the
# same buffer.  The case's lines come from the export on stdin (the
# function's loc is line F, column 3).
at=$(grep -o 'loc("[^"]*":[0-9]*:3)' | tail -n 1)
file=${at#loc(\"} file=${file%%\":*} f=${at%:3)} f=${f##*:}
L() { echo "loc(\"$file\":$(($f + $1)):$2)"; }
cat <<MLIR
"builtin.module"() ({
  "func.func"() <{function_type = (memref<2x3xf32, strided<[?, ?], offset: ?>>) -> memref<2x3xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<2x3xf32, strided<[?, ?], offset: ?>>):
    %0 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    %1 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32
    %2 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x3xf32> $(L 1 5)
    %4 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1x3xf32> $(L 4 7)
    "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 2>}> ({
    ^bb0(%arg1: index):
      %3 = "memref.subview"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, 3>, static_strides = array<i64: 1, 1>}> : (memref<2x3xf32, strided<[?, ?], offset: ?>>, index) -> memref<1x3xf32, strided<[?, ?], offset: ?>> $(L 3 7)
      "linalg.generic"(%3, %1, %4) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg5: f32, %arg6: f32, %arg7: f32):
        %7 = "arith.mulf"(%arg5, %arg6) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
        "linalg.yield"(%7) : (f32) -> ()
      }) : (memref<1x3xf32, strided<[?, ?], offset: ?>>, f32, memref<1x3xf32>) -> () $(L 4 7)
      "linalg.generic"(%4, %0, %4) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%arg2: f32, %arg3: f32, %arg4: f32):
        %6 = "arith.addf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
        "linalg.yield"(%6) : (f32) -> ()
      }) : (memref<1x3xf32>, f32, memref<1x3xf32>) -> () $(L 5 7)
      %5 = "memref.subview"(%2, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, 3>, static_strides = array<i64: 1, 1>}> : (memref<2x3xf32>, index) -> memref<1x3xf32, strided<[3, 1], offset: ?>> $(L 6 7)
      "memref.copy"(%4, %5) : (memref<1x3xf32>, memref<1x3xf32, strided<[3, 1], offset: ?>>) -> () $(L 6 7)
      "scf.forall.in_parallel"() ({
      ^bb0:
      }) : () -> () $(L 7 5)
    }) : () -> () $(L 2 5)
    "memref.dealloc"(%4) : (memref<1x3xf32>) -> () $(L 8 5)
    "func.return"(%2) : (memref<2x3xf32>) -> () $(L 8 5)
  }) : () -> () $(L 0 3)
}) : () -> ()
MLIR
