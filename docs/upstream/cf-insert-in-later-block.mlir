// mlir/cf-insert-in-later-block: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: 200  (expected 101)
//
// CHECK: {{^}}101{{$}}

func.func @main(%t: tensor<2xi32>, %c: i1) -> i32 {
  cf.cond_br %c, ^write, ^join(%t : tensor<2xi32>)
^write:
  %_1 = arith.constant 100 : i32
  %_2 = arith.constant 0 : index
  %r = tensor.insert %_1 into %t[%_2] : tensor<2xi32>
  cf.br ^join(%r : tensor<2xi32>)
^join(%a: tensor<2xi32>):
  %_3 = arith.constant 0 : index
  %x = tensor.extract %a[%_3] : tensor<2xi32>
  %_4 = arith.constant 0 : index
  %e = tensor.extract %t[%_4] : tensor<2xi32>
  %s = arith.addi %x, %e : i32
  func.return %s : i32
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<2xi32>
  %in1 = arith.constant true
  %r = func.call @main(%in0, %in1) : (tensor<2xi32>, i1) -> (i32)
  %o0.e.x = arith.extsi %r : i32 to i64
  func.call @printI64(%o0.e.x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
