#!/bin/sh
# mlir-opt-as.sh N PIPELINE [FN...] [mlir-opt options, ignored]: a real
# mlir-opt-N run with a pipeline of the case's choosing, for cases (whose
# runs name a tool, not --mlir-pipeline):
#   strategy: "mlir-pipeline:sh tests/tools/mlir-opt-as.sh 22 'P' inc"
# runs the export on stdin through builtin.module(P), each FN made private
# first (private functions get the ownership results of
# buffer-deallocation-pipeline{private-function-dynamic-ownership}).
n=$1 p=$2
shift 2
script=
while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do
	script="$script;s/^func\.func @$1(/func.func private @$1(/"
	shift
done
sed "${script#;}" | exec "mlir-opt-$n" "--pass-pipeline=builtin.module($p)" \
	--mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope
