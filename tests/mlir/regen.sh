#!/usr/bin/env bash
# Regenerate the mlir_read fixtures from the inputs here (needs mlir-opt-16,
# -19 and -22).  Outputs are committed; test_mlir_read.c asserts on them.
set -euo pipefail
cd "$(dirname "$0")"
G=(--mlir-print-op-generic --mlir-print-debuginfo)
A="bufferize-function-boundaries test-analysis-only"
mlir-opt-16 --one-shot-bufferize="$A allow-return-allocs" "${G[@]}" loops.mlir >loops.v16.analysis.mlir
mlir-opt-19 --one-shot-bufferize="$A" "${G[@]}" loops.mlir >loops.v19.analysis.mlir
mlir-opt-22 --one-shot-bufferize="$A" "${G[@]}" loops.mlir >loops.v22.analysis.mlir
mlir-opt-22 --one-shot-bufferize="$A" "${G[@]}" --mlir-print-local-scope loops.mlir \
	>loops.v22.analysis.local.mlir
# v16 has no buffer-deallocation-pipeline and cannot bufferize tensor.empty
mlir-opt-16 --empty-tensor-to-alloc-tensor \
	--one-shot-bufferize="bufferize-function-boundaries allow-return-allocs" \
	--buffer-deallocation "${G[@]}" loops.mlir >loops.v16.memref.mlir
for v in 19 22; do
	mlir-opt-$v --one-shot-bufferize="bufferize-function-boundaries" \
		--buffer-deallocation-pipeline "${G[@]}" loops.mlir >loops.v$v.memref.mlir
done
mlir-opt-22 --allow-unregistered-dialect "${G[@]}" --mlir-print-local-scope misc.mlir >misc.v22.local.mlir
for v in 16 19 22; do
	mlir-opt-$v --allow-unregistered-dialect "${G[@]}" misc.mlir >misc.v$v.mlir
done
mlir-opt-22 --allow-unregistered-dialect "${G[@]}" --mlir-print-local-scope misc.mlir >misc.v22.local.mlir
