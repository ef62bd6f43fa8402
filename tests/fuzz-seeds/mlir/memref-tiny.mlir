"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, memref<4xf32>) -> memref<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<4xf32> loc("fuzz.yaml":3:13), %arg1: memref<4xf32> loc("fuzz.yaml":3:34)):
    %0 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32> loc("fuzz.yaml":4:5)
    "memref.copy"(%arg0, %0) : (memref<4xf32>, memref<4xf32>) -> () loc("fuzz.yaml":4:5)
    "func.return"(%0) : (memref<4xf32>) -> () loc("fuzz.yaml":16:5)
  }) : () -> () loc("fuzz.yaml":3:3)
}) : () -> () loc("<stdin>":0:0)
