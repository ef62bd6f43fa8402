// mlir/generate-insert-captured: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: [5, 4, 100, 100]  (expected [5, 4, 3, 2])
//   output 1: 209  (expected 14)
//
// CHECK: {{^}}5{{$}}
// CHECK-NEXT: {{^}}4{{$}}
// CHECK-NEXT: {{^}}3{{$}}
// CHECK-NEXT: {{^}}2{{$}}
// CHECK-NEXT: {{^}}14{{$}}

func.func @main(%t: tensor<4xi32>) -> (tensor<4xi32>, i32) {
  %_1 = arith.constant 1 : i32
  %f = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t, %_1 : tensor<4xi32>, i32) outs(%t : tensor<4xi32>) {
  ^bb0(%_2: i32, %_3: i32, %_4: i32):
    %_5 = arith.addi %_2, %_3 : i32
    linalg.yield %_5 : i32
  } -> tensor<4xi32>
  %g = tensor.generate {
  ^bb0(%i: index):
    %_6 = arith.constant 100 : i32
    %u = tensor.insert %_6 into %f[%i] : tensor<4xi32>
    %_7 = arith.constant 3 : index
    %k = arith.subi %_7, %i : index
    %w = tensor.extract %u[%k] : tensor<4xi32>
    tensor.yield %w : i32
  } : tensor<4xi32>
  %z0 = tensor.empty() : tensor<i32>
  %_8 = arith.constant 0 : i32
  %z = linalg.fill ins(%_8 : i32) outs(%z0 : tensor<i32>) -> tensor<i32>
  %s = linalg.reduce ins(%g : tensor<4xi32>) outs(%z : tensor<i32>) dimensions = [0]
    (%_9: i32, %_10: i32) {
      %_11 = arith.addi %_9, %_10 : i32
      linalg.yield %_11 : i32
    }
  %r = tensor.extract %s[] : tensor<i32>
  func.return %g, %r : tensor<4xi32>, i32
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<4xi32>
  %r:2 = func.call @main(%in0) : (tensor<4xi32>) -> (tensor<4xi32>, i32)
  %o0.n0 = tensor.dim %r#0, %c0 : tensor<4xi32>
  scf.for %o0.i0 = %c0 to %o0.n0 step %c1 {
    %o0.e = tensor.extract %r#0[%o0.i0] : tensor<4xi32>
    %o0.e.x = arith.extsi %o0.e : i32 to i64
    func.call @printI64(%o0.e.x) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  %o1.e.x = arith.extsi %r#1 : i32 to i64
  func.call @printI64(%o1.e.x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
