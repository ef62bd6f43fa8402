// mlir/async-host-write-while-launch-reads: a miscompile of One-Shot Bufferize, found by bufdiff
// RUN: mlir-opt-22 %s '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops' | mlir-opt-22 --convert-bufferization-to-memref --convert-linalg-to-loops --async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt --convert-async-to-llvm --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | mlir-runner-22 -O0 -e bufdiff_native_driver -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1,/usr/lib/llvm-22/lib/libmlir_async_runtime.so.22.1 | FileCheck %s
// (the runtime libraries as Debian's llvm-22 installs them; in llvm-project: %mlir_c_runner_utils,%mlir_runner_utils,%mlir_async_runtime)
//
// Each launch is held by a gate token (async.runtime.create) until just before its
// await: a legal schedule (a launch may start at any time before its await), made
// deterministic.  The gates touch no tensor.
//
// Every output element is printed as its bit pattern, one a line.  Value semantics (the
// tensor program as written) give the CHECK lines; mlir-opt today gives:
//   output 0: [6.0, 12.0, 18.0, 24.0]  (expected [2.0, 4.0, 6.0, 8.0])
//   output 1: [3.0, 6.0, 9.0, 12.0]  (expected [3.0, 6.0, 9.0, 12.0])
//
// CHECK: {{^}}1073741824{{$}}  (2)
// CHECK-NEXT: {{^}}1082130432{{$}}  (4)
// CHECK-NEXT: {{^}}1086324736{{$}}  (6)
// CHECK-NEXT: {{^}}1090519040{{$}}  (8)
// CHECK-NEXT: {{^}}1077936128{{$}}  (3)
// CHECK-NEXT: {{^}}1086324736{{$}}  (6)
// CHECK-NEXT: {{^}}1091567616{{$}}  (9)
// CHECK-NEXT: {{^}}1094713344{{$}}  (12)

func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %_2 = memref.alloc() : memref<4xf32>
  %_3 = async.runtime.create : !async.token
  %f = async.execute [%_3] attributes {bufdiff.stream = 0 : i64} {
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) {
    ^bb0(%_4: f32, %_5: f32, %_6: f32):
      %_7 = arith.addf %_4, %_5 : f32
      linalg.yield %_7 : f32
    } -> tensor<4xf32>
    bufferization.materialize_in_destination %s in restrict writable %_2 : (tensor<4xf32>, memref<4xf32>) -> ()
    async.yield
  }
  %_8 = arith.constant 3.0e+00 : f32
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %_8 : tensor<4xf32>, f32) outs(%x : tensor<4xf32>) {
  ^bb0(%_9: f32, %_10: f32, %_11: f32):
    %_12 = arith.mulf %_9, %_10 : f32
    linalg.yield %_12 : f32
  } -> tensor<4xf32>
  async.runtime.set_available %_3 : !async.token
  async.await %f : !async.token
  %s2 = bufferization.to_tensor %_2 restrict : memref<4xf32> to tensor<4xf32>
  func.return %s2, %h : tensor<4xf32>, tensor<4xf32>
}
func.func private @printI64(i64)
func.func private @printNewline()
func.func @bufdiff_native_driver() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in0.c = arith.constant dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>
  %in0 = bufferization.alloc_tensor() copy(%in0.c) : tensor<4xf32>
  %r:2 = func.call @main(%in0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %o0.n0 = tensor.dim %r#0, %c0 : tensor<4xf32>
  scf.for %o0.i0 = %c0 to %o0.n0 step %c1 {
    %o0.e = tensor.extract %r#0[%o0.i0] : tensor<4xf32>
    %o0.e.b = arith.bitcast %o0.e : f32 to i32
    %o0.e.x = arith.extui %o0.e.b : i32 to i64
    func.call @printI64(%o0.e.x) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  %o1.n0 = tensor.dim %r#1, %c0 : tensor<4xf32>
  scf.for %o1.i0 = %c0 to %o1.n0 step %c1 {
    %o1.e = tensor.extract %r#1[%o1.i0] : tensor<4xf32>
    %o1.e.b = arith.bitcast %o1.e : f32 to i32
    %o1.e.x = arith.extui %o1.e.b : i32 to i64
    func.call @printI64(%o1.e.x) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}
