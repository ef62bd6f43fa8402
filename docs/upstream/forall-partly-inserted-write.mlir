// mlir/forall-partly-inserted-write: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: [-1.5, 2.5]  (expected [-1.5, -2.5])
//
// CHECK: {{^}}3217031168{{$}}  (-1.5)
// CHECK-NEXT: {{^}}3223322624{{$}}  (-2.5)

func.func @main(%p: tensor<2xf32>) -> tensor<2xf32> {
  %r = scf.forall (%i) = (0) to (1) step (1) shared_outs(%o = %p) -> tensor<2xf32> {
    %v = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<2xf32>) outs(%o : tensor<2xf32>) {
    ^bb0(%_1: f32, %_2: f32):
      %_3 = arith.negf %_1 : f32
      linalg.yield %_3 : f32
    } -> tensor<2xf32>
    %s = tensor.extract_slice %v[0] [1] [1] : tensor<2xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [1] [1] : tensor<1xf32> into tensor<2xf32>
    }
  }
  func.return %r : tensor<2xf32>
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<"0x0000C03F000020C0"> : tensor<2xf32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<2xf32>
  %r = func.call @main(%in0) : (tensor<2xf32>) -> (tensor<2xf32>)
  %o0.n0 = tensor.dim %r, %c0 : tensor<2xf32>
  scf.for %o0.i0 = %c0 to %o0.n0 step %c1 {
    %o0.e = tensor.extract %r[%o0.i0] : tensor<2xf32>
    %o0.e.b = arith.bitcast %o0.e : f32 to i32
    %o0.e.x = arith.extui %o0.e.b : i32 to i64
    func.call @printI64(%o0.e.x) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}
