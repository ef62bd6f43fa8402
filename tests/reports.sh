#!/bin/sh
# reports.sh BUFDIFF SRC: the text report's words, exactly (issue 13,
# Reports): values of the program with FILE:LINE:COL, where a buffer was
# allocated, loop trips and branches of the write and the read, a race's
# schedule point and launches, every independent culprit set, the fix with
# one-shot's reason, the schedules tried, a failing decisions: expectation.
B=$1 S=$2
. "$S/tests/expect.sh"
seed=$S/cases/seed/old-input-still-needed.yaml
call=$S/cases/ops/call.yaml
trip=$S/tests/reports/trip-branch.yaml
race=$S/cases/mutants/async-reads-end-at-launch.yaml

expect 1 "$B" run "$seed" --strategy inplace-all
has "==bufdiff== stale-read: %z at $seed:6:5 reads %x, but its buffer now holds %y"
has "    overwritten by %y at $seed:5:5, decision y:x"
has "    first element [0] of the buffer of input %x"
has "  fix: y:x -> y:new (one-shot takes y:new: conflict: read of %x by %z at $seed:6:5 after the write of %y at $seed:5:5 into the buffer of %x; %x defined at $seed:4:14)"
has "SUMMARY: bufdiff: diverge, stale-read in %z at $seed:6:5; culprits y:x"
hasnt "(line 6) reads"
hasnt "of buffer 0"

# three independent culprits, the lowering's copies named by what they do,
# the buffer each lives in by who allocated it; a call's argument sharing
# is a decision like the in-place ones (args s:share)
expect 1 "$B" run "$call" --strategy inplace-all
has "==bufdiff== readonly-write: %r at $call:10:5 (decision r:a) writes the read-only buffer of %x"
# (the copy of %u passed out by the return at 16:5 copies a stale %u: the
# read of that copy reports it, not the copy, issue 23 item 3)
has "==bufdiff== stale-read: the return at $call:7:5 reads %p, but its buffer now holds %w"
has "    first element [0] of the buffer allocated by the copy of %u passed out by the return at $call:16:5"
has "==bufdiff== stale-read: the return at $call:7:5 reads %s, but its buffer now holds %w"
has "    first element [0] of the buffer allocated by the copy of %r passed out by the return at $call:11:5"
has "  culprits: args s:share, r:a"
has "  independent culprits (2): u:b"
has "  independent culprits (3): args p:share, w:b"
has "  fix: args s:share -> args s:copy (one-shot also takes args s:share)"
has "  fix: r:a -> r:new (one-shot takes r:new: read-only buffer: %a is a {readonly} param)"
has "  fix: u:b -> u:new (one-shot takes u:new: conflict: read of %b by %w at $call:15:5 after the write of %u at $call:14:5 into the buffer of %b; %b defined at $call:13:19)"
has "  fix: args p:share -> args p:copy (one-shot also takes args p:share)"
has "SUMMARY: bufdiff: diverge, readonly-write in %r at $call:10:5; culprits args s:share, r:a"
hasnt "%x.out"
hasnt "%?"
hasnt "(line "
hasnt "fix: or pass a copy"
expect 1 "$B" run "$call" --strategy inplace-all --json
fieldj runs.0.culprits '["args s:share", "r:a"]'
fieldj runs.0.culprit_sets '[["args s:share", "r:a"], ["u:b"], ["args p:share", "w:b"]]'
fieldj runs.0.fixes.0 '{"flip": "args s:share", "to": "args s:copy", "one_shot": "args s:share"}'
fieldj runs.0.fixes.1 '{"flip": "r:a", "to": "r:new", "one_shot": "r:new", "reason": "read-only buffer: %a is a {readonly} param"}'
field runs.0.fixes.2.reason "conflict: read of %b by %w at $call:15:5 after the write of %u at $call:14:5 into the buffer of %b; %b defined at $call:13:19"
# the read-only copy passed to a {readonly} param, in words
sed -n '1,/^expect:/p' "$call" | sed '$d' >"$tmp/call-copy.yaml"
printf 'runs:\n  - strategy: inplace-all\n    args: {s: [copy]}\n' >>"$tmp/call-copy.yaml"
expect 1 "$B" run "$tmp/call-copy.yaml"
has "==bufdiff== readonly-write: %r at $tmp/call-copy.yaml:10:5 (decision r:a) writes the read-only buffer of the copy of %x passed to the callee"
has "    in the buffer allocated by the copy of %x passed to the callee by the call at $tmp/call-copy.yaml:5:5"
hasnt ".arg"

# a write into a callee's param: the call that shares it is a culprit,
# one-shot's copy there the fix, and the plan that copies there agrees
cw=$S/cases/calls/callee-writes-param.yaml
expect 0 "$B" run "$cw"
has "  culprits: args y:share, q:p"
has "  fix: args y:share -> args y:copy (one-shot also takes args y:share)"
has "  fix: q:p -> q:new (one-shot takes q:new: %q leaves its region, and the buffer of %p is not one the region owns: reusing it would cost a copy)"
sed -n '1,/^runs:/p' "$cw" >"$tmp/cw.yaml"
printf '  - plan: {q: p}\n    args: {y: [copy]}\n    verdict: agree\n' >>"$tmp/cw.yaml"
expect 0 "$B" run "$tmp/cw.yaml"
has "run 1: plan, schedule sync: agree (as expected)"
# a culprits: list that names no call keeps FORMAT §3's meaning (the
# in-place culprits only); one that names a call must name every culprit
sed -n '1,/^runs:/p' "$cw" >"$tmp/cw1.yaml"
printf "  - plan: {q: p}\n    verdict: diverge\n    culprits: ['q:p']\n" >>"$tmp/cw1.yaml"
expect 0 "$B" run "$tmp/cw1.yaml"
has "run 1: plan, schedule sync: diverge (as expected)"
sed -n '1,/^runs:/p' "$cw" >"$tmp/cw2.yaml"
printf "  - plan: {q: p}\n    verdict: diverge\n    culprits: ['args y:share']\n" >>"$tmp/cw2.yaml"
expect 1 "$B" run "$tmp/cw2.yaml"
has "  expectation failed: culprits: found 2, expected fewer"
# two calls to one callee: only the one whose argument is read after it
mc=$S/cases/calls/missing-copy-blamed-at-call.yaml
expect 0 "$B" run "$mc"
has "  culprits: args y:share, q:p"
has "  fix: args y:share -> args y:copy (one-shot takes args y:copy: conflict: read of %x by %z at $mc:15:5 after the write of the call to @bump at $mc:14:5 into the buffer of %x; %x defined at $mc:12:14)"
hasnt "fix: args a:share"
expect 0 "$B" run "$mc" --json
fieldj runs.0.culprits '["args y:share", "q:p"]'
# a decisions: expectation on a call says what was taken
sed -n '1,/^runs:/p' "$mc" >"$tmp/mc.yaml"
printf "  - strategy: one-shot\n    decisions: ['args a:share']\n" >>"$tmp/mc.yaml"
expect 1 "$B" run "$tmp/mc.yaml"
has "  expectation failed: decisions: args a:share was not taken (args a:copy was)"
printf "  - strategy: one-shot\n    culprits: ['args z:share']\n" >>"$tmp/mc.yaml"
expect 2 "$B" run "$tmp/mc.yaml"
has "$tmp/mc.yaml:34:16: error: args: %z is not defined by a call"

# the dynamic context of a loop and branch bug
expect 0 "$B" run "$trip"
has "    written on trip 0 of the for at $trip:7:5, in the then-branch of the if at $trip:10:7; read on trip 2 of the for at $trip:7:5, in the then-branch of the if at $trip:16:7"
expect 0 "$B" run "$trip" --json
field runs.0.violations.0.read_in "on trip 2 of the for at $trip:7:5, in the then-branch of the if at $trip:16:7"
field runs.0.violations.0.written_in "on trip 0 of the for at $trip:7:5, in the then-branch of the if at $trip:10:7"

# a race: every schedule tried, how many failed, the point and the launches
expect 0 "$B" run "$race"
has "run 1: mutant-async-reads-end-at-launch, schedule late: diverge (as expected)"
has "  schedules: all 10 tried (sync, late, random:1-8); 7 fail, the worst shown: late"
has "==bufdiff== async-race: %h at $race:12:5 touches %x while the launch of %f on stream 1 at $race:8:5, which uses it, has not completed"
has "    under schedule late, after 2 instructions; launches in order: %f on stream 1 pending"
has "  schedules: all 10 tried (sync, late, random:1-8); every one agrees"
expect 0 "$B" run "$race" --schedules 1
has "  schedules: all 3 tried (sync, late, random:1); 2 fail, the worst shown: late"
expect 0 "$B" run "$race" --json
fieldj runs.0.schedules '{"tried": 10, "failing": 7}'
field runs.0.violations.0.launches "%f on stream 1 pending"
fieldj runs.0.violations.0.step 2

# a decisions: expectation says what was taken
expect 1 "$B" run "$S/tests/reports/decisions-taken.yaml"
has "  expectation failed: decisions: y:new was not taken (y:x was)"

# explain: true reasons under every strategy
expect 0 "$B" explain "$seed" --strategy copy-all
has "$seed:5:5: alloc tensor<3xi32> for %y [y:new]: copy-all gives every written result a fresh buffer (in place, it could reuse %x)"
expect 0 "$B" explain "$seed" --strategy last-use
has "$seed:5:5: alloc tensor<3xi32> for %y [y:new]: %x has a later textual use (%z = add at $seed:6:5)"
expect 0 "$B" explain "$seed" --strategy plan
has "$seed:6:5: alloc tensor<3xi32> for %z [z:new]: not in the plan, and copy-all gives every written result a fresh buffer (in place, it could reuse %x)"
hasnt "a result with no operand to reuse"
# the lowering's copies by what they are, every place as FILE:LINE:COL
expect 0 "$B" explain "$call" --strategy one-shot
has "$call:7:5: alloc tensor<3xi32> for the copy of %x passed out by the return: %x leaves its region but is not a buffer the region owns"
has "$call:7:5: copy %x into the copy of %x passed out by the return: pass out a buffer of its own"
has "$call:14:5: alloc tensor<3xi32> for %u [u:new]: conflict: read of %b by %w at $call:15:5 after the write of %u at $call:14:5 into the buffer of %b; %b defined at $call:13:19"
hasnt "%x.out"
hasnt "line "
expect 0 "$B" explain "$mc" --strategy one-shot
has "$mc:13:5: alloc tensor<3xi32> for the copy of %w passed to the callee by the call: conflict: the call to @bump at $mc:13:5 reads %w and writes it (@bump writes its param in place): one-shot does not order a callee's reads and writes of one buffer"
has "$mc:13:5: copy %w into the copy of %w passed to the callee by the call: pass a copy: the callee writes it"
# bufferize: the program keeps its register names, its comments say where
expect 0 "$B" bufferize "$call" --strategy one-shot
has "  %r = alloc tensor<3xi32>                  // r:new  (read-only buffer: %a is a {readonly} param)  $call:10:5"
has "  return %s, %p, %m, %x.out                 // $call:7:5"
hasnt "line "
fel=$S/cases/undef/filled-empty-latent.yaml
expect 0 "$B" explain "$fel" --strategy copy-all
has "$fel:8:5: alloc tensor<4xi32> for %e [e:new]: no operand of its type it may be computed into"

# poison shows as poison
expect 0 "$B" run "$S/cases/undef/insert-into-empty-read-empty.yaml"
has "  0: tensor<4xi32> = [5, poison, poison, poison]"
has "  1: i32 = poison"
# a bufferized run that stops says where, in the text and the JSON; an
# element of a view of part of a buffer says where it is in the buffer too
wn=$S/cases/loops/while-never-ends-in-place.yaml
expect 0 "$B" run "$wn"
has "  the bufferized run stopped at $wn:14:5: loop trip limit of 50 reached"
has "    first element [] of the view read, element 0 of the buffer of input %x; 50 times"
expect 0 "$B" run "$wn" --json
field runs.0.aborted "$wn:14:5: loop trip limit of 50 reached"
# leaks with LSan's figures: bytes and objects per site, the total in
# the SUMMARY line (issue 25)
lk=$S/tests/reports/leak-in-loop.yaml
expect 0 "$B" run "$lk"
has "==bufdiff== leak: 48 bytes in 3 objects allocated by %t at $lk:10:7 (decision t:new), never freed"
has "SUMMARY: bufdiff: fault, leak in %t at $lk:10:7; 48 bytes leaked in 3 allocations; culprits free t:after v"
expect 0 "$B" run "$lk" --json
field runs.0.violations.0.bytes 48
field runs.0.violations.0.count 3
lk1=$S/cases/faults/leak.yaml
expect 0 "$B" run "$lk1"
has "==bufdiff== leak: 12 bytes in 1 object allocated by %y at $lk1:7:5 (decision y:new), never freed"
has "SUMMARY: bufdiff: fault, leak in %y at $lk1:7:5; 12 bytes leaked in 1 allocation; culprits free y:after t"
echo ok
