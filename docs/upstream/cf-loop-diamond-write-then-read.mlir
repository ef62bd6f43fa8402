// mlir/cf-loop-diamond-write-then-read: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: 200  (expected 101)
//
// CHECK: {{^}}101{{$}}

func.func @main(%t: tensor<2xi32>) -> i32 {
  %zero = arith.constant 0 : i32
  %i0 = arith.constant 0 : index
  cf.br ^head(%i0, %zero : index, i32)
^head(%i: index, %acc: i32):
  %_1 = arith.constant 2 : index
  %more = arith.cmpi slt, %i, %_1 : index
  cf.cond_br %more, ^body, ^exit(%acc : i32)
^body:
  %_2 = arith.constant 1 : index
  %second = arith.cmpi eq, %i, %_2 : index
  cf.cond_br %second, ^read, ^write
^write:
  %_3 = arith.constant 100 : i32
  %_4 = arith.constant 0 : index
  %r = tensor.insert %_3 into %t[%_4] : tensor<2xi32>
  %_5 = arith.constant 0 : index
  %x = tensor.extract %r[%_5] : tensor<2xi32>
  cf.br ^latch(%x : i32)
^read:
  %_6 = arith.constant 0 : index
  %y = tensor.extract %t[%_6] : tensor<2xi32>
  cf.br ^latch(%y : i32)
^latch(%v: i32):
  %acc2 = arith.addi %acc, %v : i32
  %_7 = arith.constant 1 : index
  %i2 = arith.addi %i, %_7 : index
  cf.br ^head(%i2, %acc2 : index, i32)
^exit(%res: i32):
  func.return %res : i32
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<2xi32>
  %r = func.call @main(%in0) : (tensor<2xi32>) -> (i32)
  %o0.e.x = arith.extsi %r : i32 to i64
  func.call @printI64(%o0.e.x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
