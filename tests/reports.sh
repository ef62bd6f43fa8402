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
# the buffer each lives in by who allocated it
expect 1 "$B" run "$call" --strategy inplace-all
has "==bufdiff== readonly-write: %r at $call:10:5 (decision r:a) writes the read-only buffer of %x"
has "==bufdiff== stale-read: the copy of %u passed out by the return at $call:16:5 reads %u, but its buffer now holds %w"
has "==bufdiff== stale-read: the return at $call:7:5 reads %s, but its buffer now holds %w"
has "    first element [0] of the buffer allocated by the copy of %r passed out by the return at $call:11:5"
has "  culprits: r:a"
has "  independent culprits (2): u:b"
has "  independent culprits (3): w:b"
has "  fix: r:a -> r:new (one-shot takes r:new: read-only buffer: %a is a {readonly} param)"
has "  fix: or pass a copy of %x to @scale at the call at $call:5:5 (plan: args: {s: [copy]})"
hasnt "%x.out"
hasnt "%?"
expect 1 "$B" run "$call" --strategy inplace-all --json
json '"culprits": ["r:a"], "culprit_sets": [["r:a"], ["u:b"], ["w:b"]], "fixes": [{"flip": "r:a", "to": "r:new", "one_shot": "r:new", "reason": "read-only buffer: %a is a {readonly} param"}'

# a write into a callee's param: the copy at the call is the other fix,
# and the plan it names makes the run agree
cw=$S/cases/calls/callee-writes-param.yaml
expect 0 "$B" run "$cw"
has "  fix: or pass a copy of %x to @inc at the call at $cw:7:5 (plan: args: {y: [copy]})"
sed -n '1,/^runs:/p' "$cw" >"$tmp/cw.yaml"
printf '  - plan: {q: p}\n    args: {y: [copy]}\n    verdict: agree\n' >>"$tmp/cw.yaml"
expect 0 "$B" run "$tmp/cw.yaml"
has "run 1: plan, schedule sync: agree (as expected)"

# the dynamic context of a loop and branch bug
expect 0 "$B" run "$trip"
has "    written on trip 0 of the for at $trip:7:5, in the then-branch of the if at $trip:10:7; read on trip 2 of the for at $trip:7:5, in the then-branch of the if at $trip:16:7"
expect 0 "$B" run "$trip" --json
json '"read_in": "on trip 2 of the for at '"$trip"':7:5, in the then-branch of the if at '"$trip"':16:7", "written_in": "on trip 0 of the for at '"$trip"':7:5, in the then-branch of the if at '"$trip"':10:7"'

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
json '"schedules": {"tried": 10, "failing": 7}'
json '"launches": "%f on stream 1 pending", "step": 2'

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
fel=$S/cases/undef/filled-empty-latent.yaml
expect 0 "$B" explain "$fel" --strategy copy-all
has "$fel:8:5: alloc tensor<4xi32> for %e [e:new]: no operand of its type it may be computed into"

# poison shows as poison
expect 0 "$B" run "$S/cases/undef/insert-into-empty-read-empty.yaml"
has "  0: tensor<4xi32> = [5, poison, poison, poison]"
has "  1: i32 = poison"
echo ok
