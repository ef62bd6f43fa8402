# hostile-sizes: inputs that make names numerous (issue 24, item 4).  A
# lookup by name that scans makes each of them quadratic: minutes, so
# the ctest TIMEOUT fails them; hashed (interp/strmap.c) each takes
# seconds.  Each states its exact error or verdict.
#   keys    a --plan document of 300,000 keys, then the first again
#   funcs   200,000 functions, then @f0 again; and 40,000 that run
#   plan    a run whose plan names each of 200,000 op results
#   memref  a mlir-pipeline answer of 100,000 linalg ops (a command-line
#           strategy: the tool is this test's `cat` of the answer)
#   merge   a `fuzz --merge` summary of 200,000 buckets
B=$1 S=$2
. "$S/tests/expect.sh"
py() { python3 -c "$1" "${@:2}"; }

# a case of N adds in a chain (op i on line 4 + i) to stand on
chain() {
	py 'import sys
n = int(sys.argv[1]); w = sys.stdout.write
w("case: big/chain\nprogram: |\n  func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n")
w("    %v0 = add %x, %x : tensor<4xf32>\n")
for i in range(1, n): w(f"    %v{i} = add %v{i-1}, %x : tensor<4xf32>\n")
w(f"    return %v{n-1}\n  }}\ninputs:\n  x: [1, 2, 3, 4]\n")' "$1"
}
chain 2 >small.yaml

# keys: the located duplicate-key error
py 'import sys
w = sys.stdout.write
w("plan:\n")
for i in range(300000): w(f"  k{i}: new\n")
w("  k0: new\n")' >keys.yaml
expect 2 "$B" run small.yaml --plan keys.yaml
has "keys.yaml:300002:3: error: duplicate key 'k0' in plan"

# funcs: a redefinition after 200,000 functions; 40,000 that load and run
funcs() {
	py 'import sys
n, dup = int(sys.argv[1]), sys.argv[2] == "dup"; w = sys.stdout.write
w("case: big/funcs\nprogram: |\n")
for i in range(n): w(f"  func @f{i}(%x: tensor<4xf32>) -> tensor<4xf32> {{\n    return %x\n  }}\n")
if dup: w("  func @f0(%x: tensor<4xf32>) -> tensor<4xf32> {\n    return %x\n  }\n")
w("  func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n")
w(f"    %y = call @f{n-1}(%x)\n    return %y\n  }}\ninputs:\n  x: [1, 2, 3, 4]\n")' "$@"
}
funcs 200000 dup >dupfuncs.yaml
expect 2 "$B" run dupfuncs.yaml --strategy copy-all
has "dupfuncs.yaml:600003:3: error: redefinition of function @f0"
funcs 40000 once >funcs.yaml
expect 0 "$B" run funcs.yaml --strategy copy-all
has "run 1: copy-all, schedule sync: agree (as expected)"

# plan: 200,000 names resolved, then an error after them (no run)
chain 200000 >plan.yaml
py 'import sys
w = sys.stdout.write
w("runs:\n  - plan:\n")
for i in range(200000): w(f"      v{i}: new\n")
w("    hoist: [v0]\n")' >>plan.yaml
expect 2 "$B" run plan.yaml
has "plan.yaml:400010:13: error: hoist: %v0 is not defined inside a loop"

# memref: the pipeline's answer for a chain of 100,000 adds, a linalg.generic
# each into one buffer
chain 100000 >mem.yaml
py 'import sys
n, f, m = 100000, "mem.yaml", "memref<4xf32>"; w = sys.stdout.write
w(f"\"builtin.module\"() ({{\n  \"func.func\"() <{{function_type = ({m}) -> {m}, sym_name = \"main\"}}> ({{\n")
w(f"  ^bb0(%arg0: {m} loc(\"{f}\":3:13)):\n")
w(f"    %0 = \"memref.alloc\"() <{{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}}> : () -> {m} loc(\"{f}\":4:5)\n")
maps = ", ".join(["affine_map<(d0) -> (d0)>"] * 3)
for i in range(n):
    a, L = ("%arg0" if i == 0 else "%0"), f"loc(\"{f}\":{4+i}:5)"
    w(f"    \"linalg.generic\"({a}, %arg0, %0) <{{indexing_maps = [{maps}], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}}> ({{\n")
    w(f"    ^bb0(%a{3*i}: f32, %a{3*i+1}: f32, %a{3*i+2}: f32):\n")
    w(f"      %r{i} = \"arith.addf\"(%a{3*i}, %a{3*i+1}) <{{fastmath = #arith.fastmath<none>}}> : (f32, f32) -> f32 {L}\n")
    w(f"      \"linalg.yield\"(%r{i}) : (f32) -> () {L}\n")
    w(f"    }}) : ({m}, {m}, {m}) -> () {L}\n")
w(f"    \"func.return\"(%0) : ({m}) -> () loc(\"{f}\":{4+n}:5)\n  }}) : () -> () loc(\"{f}\":3:3)\n}}) : () -> () loc(\"<stdin>\":0:0)\n")' >mem.mlir
printf '#!/bin/sh\ncat "%s/mem.mlir"\n' "$PWD" >answer
chmod +x answer
expect 0 "$B" run mem.yaml --strategy "mlir-pipeline:$PWD/answer"
has "run 1: mlir-pipeline:$PWD/answer, schedule sync: agree (as expected)"

# merge: 200,000 buckets, each a failure
py 'import sys
n = 200000
b = ", ".join(f"{{\"signature\": \"s{i}\", \"count\": 1, \"seeds\": [{i}]}}" for i in range(n))
sys.stdout.write(f"{{\"programs\": {n}, \"failures\": {n}, \"skipped\": 0, \"tool_errors\": 0, \"tool_calls\": 0, \"buckets\": [{b}]}}\n")' >merge.jsonl
expect 1 "$B" fuzz --merge merge.jsonl
has "1 shards: 200000 programs, 200000 failures (0 tool errors) in 200000 buckets"
echo "ok: sizes"
