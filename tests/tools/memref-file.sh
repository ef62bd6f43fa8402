#!/bin/sh
# memref-file.sh FILE [mlir-opt options, ignored]: a fake bufferization
# pipeline that prints the hand-written memref program FILE (generic form,
# tests/tools/memref/*.mlir), with each @CASE@ replaced by the case file's
# path as the export on its stdin spells it in its locations, so the memref
# ops carry the locations of the case's TIR ops.
file=$(grep -o 'loc("[^"<][^"]*":' | head -n 1)
file=${file#loc(\"} file=${file%\":}
sed "s|@CASE@|$file|g" "$1"
