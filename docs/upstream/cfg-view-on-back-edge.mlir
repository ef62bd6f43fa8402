// cfg/view-on-back-edge: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils)
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: [656.8408355712891, 2328306.4365386963, 0.010022595757618546, 3.552713678800501e-15]  (expected [2.25, 6.25, 0.5625, 0.015625])
//
// CHECK: {{^}}4612248968380809216{{$}}  (2.25)
// CHECK-NEXT: {{^}}4618722892845154304{{$}}  (6.25)
// CHECK-NEXT: {{^}}4603241769126068224{{$}}  (0.5625)
// CHECK-NEXT: {{^}}4580160821035794432{{$}}  (0.015625)

func.func @main(%p1: tensor<2x2xf64>, %n: index) -> tensor<2x2xf64> {
  %z0 = arith.constant 0 : index
  cf.br ^bb1(%z0, %p1 : index, tensor<2x2xf64>)
^bb1(%i0: index, %acc5: tensor<2x2xf64>):
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p1, %acc5 : tensor<2x2xf64>, tensor<2x2xf64>) outs(%p1 : tensor<2x2xf64>) {
  ^bb0(%_1: f64, %_2: f64, %_3: f64):
    %_4 = arith.mulf %_1, %_2 : f64
    linalg.yield %_4 : f64
  } -> tensor<2x2xf64>
  %c0 = arith.cmpi slt, %i0, %n : index
  cf.cond_br %c0, ^bb2, ^bb3
^bb2:
  %v7 = tensor.extract_slice %p1[0, 0] [2, 2] [1, 1] : tensor<2x2xf64> to tensor<2x2xf64>
  %_5 = arith.constant 1 : index
  %i0n = arith.addi %i0, %_5 : index
  cf.br ^bb1(%i0n, %v7 : index, tensor<2x2xf64>)
^bb3:
  func.return %v6 : tensor<2x2xf64>
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<"0x000000000000F8BF0000000000000440000000000000E83F000000000000C0BF"> : tensor<2x2xf64>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<2x2xf64>
  %in1 = arith.constant 3 : index
  %r = func.call @main(%in0, %in1) : (tensor<2x2xf64>, index) -> (tensor<2x2xf64>)
  %o0.n0 = tensor.dim %r, %c0 : tensor<2x2xf64>
  %o0.n1 = tensor.dim %r, %c1 : tensor<2x2xf64>
  scf.for %o0.i0 = %c0 to %o0.n0 step %c1 {
    scf.for %o0.i1 = %c0 to %o0.n1 step %c1 {
      %o0.e = tensor.extract %r[%o0.i0, %o0.i1] : tensor<2x2xf64>
      %o0.e.x = arith.bitcast %o0.e : f64 to i64
      func.call @printI64(%o0.e.x) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
  }
  return
}
