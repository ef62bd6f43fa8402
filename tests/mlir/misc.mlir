// Syntax the reader must take generically: aliases, successors, result
// groups, name/fused/callsite locations, resources, escapes, unknown ops.
!t = tensor<4xf32>
#id = affine_map<(d0) -> (d0)>
module attributes {test.note = "a \"quoted\" note", test.n = 3 : i64} {
  func.func @twice(%a: !t {bufferization.writable = false}) -> !t {
    %e = tensor.empty() : !t loc("empty"("misc.mlir":8:10))
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : !t) outs(%e : !t) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> !t loc(fused["misc.mlir":9:10, "other.mlir":1:1])
    return %r : !t
  }
  func.func @pick(%c: i1, %u: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<4xf32> {
    cf.cond_br %c, ^bb1(%u : tensor<4xf32>), ^bb1(%v : tensor<4xf32>) loc(callsite("inner.mlir":2:3 at "misc.mlir":17:5))
  ^bb1(%w: tensor<4xf32>):
    %k = arith.constant dense_resource<blob1> : tensor<2xi32> loc(unknown)
    %q:2 = "test.two"(%w) {tag = "x\0Ay", empty = {}, set = affine_set<(d0) : (d0 - 1 >= 0)>} : (tensor<4xf32>) -> (tensor<4xf32>, i32) loc(fused<"meta">["misc.mlir":21:5])
    "test.sink"(%q#1, %k) : (i32, tensor<2xi32>) -> ()
    return %q#0 : tensor<4xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
