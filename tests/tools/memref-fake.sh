#!/bin/sh
# memref-fake.sh KIND [mlir-opt options, ignored]: a fake bufferization
# pipeline for `--strategy "mlir-pipeline:sh tests/tools/memref-fake.sh
# KIND"` on the seed program (y = x + 10 on line L, z = x + y on L + 1, as
# in cases/seed/old-input-still-needed.yaml).  It prints a memref program
# in the generic form, with the locations of the export on its stdin, and
#   ok          y in a new buffer, z in place into x's, y freed: correct
#   stale       y in place into x's buffer: z reads x's clobbered elements
#   double-free y's buffer freed twice
#   early-free  y's buffer freed before z reads it
#   leak        y's buffer never freed
#   alias-free  y's buffer freed through a subview and a cast of it
#   unsupported an op outside the executed subset (memref.atomic_rmw)
at=$(awk 'f == "" && /arith.constant 10 / && match($0, /loc\("[^"]*":[0-9]+/) {
	f = substr($0, RSTART + 4, RLENGTH - 4) } END { print f }')
file=${at%\":*} file=${file#\"} l=${at##*:}
y=$l z=$((l + 1)) r=$((l + 2))
yout=%1 free1='"memref.dealloc"(%1) : (memref<3xi32>) -> ()' free2= mid=
case $1 in
stale) yout=%arg0 ;;
double-free) free2=$free1 ;;
early-free) mid=$free1 free1= ;;
leak) free1= ;;
alias-free) free1='%5 = "memref.subview"(%1) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 3>, static_strides = array<i64: 1>}> : (memref<3xi32>) -> memref<3xi32, strided<[1]>>
    %6 = "memref.cast"(%5) : (memref<3xi32, strided<[1]>>) -> memref<?xi32, strided<[1]>>
    "memref.dealloc"(%6) : (memref<?xi32, strided<[1]>>) -> ()' ;;
unsupported) mid='%7 = "memref.atomic_rmw"(%0, %1, %0) <{kind = 0 : i64}> : (i32, memref<3xi32>, i32) -> i32' ;;
esac
cat <<MLIR
"builtin.module"() ({
  "func.func"() <{function_type = (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<3xi32, strided<[?], offset: ?>> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 10 : i32}> : () -> i32 loc("$file":$y:5)
    %1 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<3xi32> loc("$file":$y:5)
    "linalg.generic"(%arg0, %0, $yout) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%a: i32, %b: i32, %c: i32):
      %2 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("$file":$y:5)
      "linalg.yield"(%2) : (i32) -> () loc("$file":$y:5)
    }) : (memref<3xi32, strided<[?], offset: ?>>, i32, memref<3xi32>) -> () loc("$file":$y:5)
    $mid
    "linalg.generic"(%arg0, $yout, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%d: i32, %e: i32, %f: i32):
      %3 = "arith.addi"(%d, %e) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc("$file":$z:5)
      "linalg.yield"(%3) : (i32) -> () loc("$file":$z:5)
    }) : (memref<3xi32, strided<[?], offset: ?>>, memref<3xi32>, memref<3xi32, strided<[?], offset: ?>>) -> () loc("$file":$z:5)
    %4 = "bufferization.clone"(%arg0) : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>> loc("$file":$r:5)
    $free1
    $free2
    "func.return"(%4) : (memref<3xi32, strided<[?], offset: ?>>) -> () loc("$file":$r:5)
  }) : () -> () loc("$file":$((l - 1)):3)
}) : () -> () loc("<stdin>":0:0)
MLIR
