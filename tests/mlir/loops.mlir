func.func @main(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %v = tensor.extract %acc[%i] : tensor<4xf32>
    %w = arith.addf %v, %cst : f32
    %t = tensor.insert %w into %acc[%i] : tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  %s = tensor.extract %x[%c0] : tensor<4xf32>
  %b = arith.cmpf olt, %s, %cst : f32
  %q = scf.if %b -> (tensor<4xf32>) {
    scf.yield %r : tensor<4xf32>
  } else {
    scf.yield %f : tensor<4xf32>
  }
  return %q, %s : tensor<4xf32>, f32
}
