// mlir/cf-cross-iteration-slice: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: 501.0  (expected 306.0)
//
// CHECK: {{^}}1134100480{{$}}  (306)

func.func @main(%t: tensor<4xf32>) -> f32 {
  %zero = arith.constant 0.0e+00 : f32
  %i1 = arith.constant 1 : index
  cf.br ^head(%i1, %zero, %t : index, f32, tensor<4xf32>)
^head(%i: index, %sum: f32, %tt: tensor<4xf32>):
  %_1 = arith.constant 4 : index
  %more = arith.cmpi slt, %i, %_1 : index
  cf.cond_br %more, ^body, ^exit(%sum : f32)
^body:
  %_2 = arith.constant 1 : index
  %p = arith.subi %i, %_2 : index
  %lhs = tensor.extract_slice %tt[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %rhs = tensor.extract_slice %tt[%p] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %_3 = arith.constant 1.0e+02 : f32
  %w = linalg.fill ins(%_3 : f32) outs(%lhs : tensor<1xf32>) -> tensor<1xf32>
  %_4 = arith.constant 0 : index
  %new = tensor.extract %w[%_4] : tensor<1xf32>
  %_5 = arith.constant 0 : index
  %old = tensor.extract %rhs[%_5] : tensor<1xf32>
  %pair = arith.addf %new, %old : f32
  %next = arith.addf %sum, %pair : f32
  %_6 = arith.constant 1 : index
  %i2 = arith.addi %i, %_6 : index
  cf.br ^head(%i2, %next, %tt : index, f32, tensor<4xf32>)
^exit(%r: f32):
  func.return %r : f32
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<4xf32>
  %r = func.call @main(%in0) : (tensor<4xf32>) -> (f32)
  %o0.e.b = arith.bitcast %r : f32 to i32
  %o0.e.x = arith.extui %o0.e.b : i32 to i64
  func.call @printI64(%o0.e.x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
