#!/bin/sh
# mlir-fake.sh KIND [mlir-opt options, ignored]: a fake mlir-opt for
# `--strategy "mlir:sh tests/tools/mlir-fake.sh KIND"` on
# the seed program (y = x + 10 on line L, z = x + y on L + 1, as in
# cases/seed/old-input-still-needed.yaml).  It prints the generic form
# One-Shot Bufferize's analysis would, with the locations of the export on
# its stdin (the case file, and L from the constant 10), and
#   garbage   text that is not MLIR
#   noloc     y's op located at line 99, where the case has no op
#   words     two in-place words for y's three operands
#   maybe     the unknown in-place word "maybe"
#   diverge   y in place into x ("true" on its init), z into a new buffer:
#             a valid answer that is wrong (z still reads x)
at=$(awk 'f == "" && /arith.constant 10 / && match($0, /loc\("[^"]*":[0-9]+/) {
	f = substr($0, RSTART + 4, RLENGTH - 4) } END { print f }')
file=${at%\":*} file=${file#\"} l=${at##*:}
y='"true", "none", "false"' yline=$l z='"true", "true", "true"'
case $1 in
garbage) echo 'this is not MLIR {'; exit 0 ;;
noloc) yline=99 ;;
words) y='"true", "false"' ;;
maybe) y='"true", "none", "maybe"' ;;
diverge) y='"true", "none", "true"' z='"true", "true", "false"' ;;
esac
cat <<MLIR
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3xi32>) -> tensor<3xi32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3xi32> loc("<stdin>":1:17)):
    %0 = "arith.constant"() <{value = 10 : i32}> : () -> i32 loc("$file":$l:5)
    %1 = "linalg.generic"(%arg0, %0, %arg0) ({
    ^bb0(%a: i32, %b: i32, %c: i32):
      %4 = "arith.addi"(%a, %b) : (i32, i32) -> i32 loc("$file":$l:5)
      "linalg.yield"(%4) : (i32) -> () loc("$file":$l:5)
    }) {__inplace_operands_attr__ = [$y]} : (tensor<3xi32>, i32, tensor<3xi32>) -> tensor<3xi32> loc("$file":$yline:5)
    %2 = "linalg.generic"(%arg0, %1, %arg0) ({
    ^bb0(%d: i32, %e: i32, %f: i32):
      %3 = "arith.addi"(%d, %e) : (i32, i32) -> i32 loc("$file":$((l + 1)):5)
      "linalg.yield"(%3) : (i32) -> () loc("$file":$((l + 1)):5)
    }) {__inplace_operands_attr__ = [$z]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32> loc("$file":$((l + 1)):5)
    "func.return"(%2) {__inplace_operands_attr__ = ["true"]} : (tensor<3xi32>) -> () loc("$file":$((l + 2)):5)
  }) : () -> () loc("$file":$((l - 1)):3)
}) : () -> () loc("<stdin>":0:0)
MLIR
