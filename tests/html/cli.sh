# html/cli.sh BUFDIFF SRCDIR: --html, --memory-trace's columns and
# `lab cache` from the command line (docs/html.md, docs/lab.md).
bufdiff=$1 src=$2
. "$src/tests/expect.sh"
count() { # want pattern file
	n=$(grep -cF -- "$2" "$3")
	[ "$n" = "$1" ] || fail "$3: $n lines with $2, expected $1"
}
occurs() { # want pattern file: times, not lines
	n=$(grep -oF -- "$2" "$3" | wc -l)
	[ "$n" = "$1" ] || fail "$3: $2 $n times, expected $1"
}

# --- lab cache: the seed's figures
expect 0 "$bufdiff" lab cache
has "lab cache: fully associative LRU, capacity 4, addresses (i*4) mod 16, 16 requests"
has "     #  addr result  evicted  cache (oldest to newest)"
has "     3    12   miss        -  [0 4 8 12]"
has "     4     0    hit        -  [4 8 12 0]"
has "cache order (oldest to newest): [0 4 8 12]"
has "hits 12 of 16 (75.0%), misses 4"
has "so evicting an address is no evidence that a real buffer has no live"
count 4 "   miss " "$out"
expect 0 "$bufdiff" lab cache --capacity 4 --stride 4 --requests 16 --step 1
has "hits 13 of 17 (76.5%), misses 4"
has "cache order (oldest to newest): [4 8 12 0]"
has "    16     0    hit        -  [4 8 12 0]"
# two lines for four addresses: LRU evicts each just before it comes back
expect 0 "$bufdiff" lab cache --capacity 2
has "     2     8   miss        0  [4 8]"
has "hits 0 of 16 (0.0%), misses 16"
# playback is capped at 4096 requests
expect 0 "$bufdiff" lab cache --requests 4096 --step 5
has "lab cache: fully associative LRU, capacity 4, addresses (i*4) mod 16, 4096 requests (capped at 4096)"
has "hits 4092 of 4096 (99.9%), misses 4"
# a stride sharing no factor with 16 visits all 16 addresses
expect 0 "$bufdiff" lab cache --capacity 16 --stride 3 --requests 32
has "hits 16 of 32 (50.0%), misses 16"
expect 2 "$bufdiff" lab cache --capacity 0
has "bufdiff lab: --capacity wants a whole number in 1..4096, got '0'"
expect 2 "$bufdiff" lab cache --requests 4097
expect 2 "$bufdiff" lab cache --stride
has "bufdiff lab: option --stride needs a value"
expect 2 "$bufdiff" lab heap
has "bufdiff lab: unknown lab 'heap' (there is \`cache\`)"
expect 2 "$bufdiff" lab cache --bogus
expect 0 "$bufdiff" lab cache --html lab.html
grep -qF 'var L={C:4,s:4,n:16,step:0}' lab.html || fail "lab.html: no initial state"
expect 2 "$bufdiff" lab cache --html /nonexistent/dir/lab.html
has "bufdiff: cannot write /nonexistent/dir/lab.html"

# --- --memory-trace: the old three columns first, then run, strategy,
# schedule; every schedule an async run tries
seed=$src/cases/seed/old-input-still-needed.yaml
expect 0 "$bufdiff" run "$seed" --memory-trace t.csv
[ "$(head -1 t.csv)" = "step,bytes,line,run,strategy,schedule" ] || fail "header: $(head -1 t.csv)"
[ "$(sed -n 2p t.csv)" = "1,24,5,1,one-shot,sync" ] || fail "row 1: $(sed -n 2p t.csv)"
count 5 ",2,plan,sync" t.csv
count 7 ",4,inplace-all,sync" t.csv
expect 0 "$bufdiff" run "$src/cases/async/quiz-free-before-async-reader.yaml" --memory-trace a.csv
count 16 ",1,plan,sync" a.csv
count 16 ",3,plan,random:8" a.csv
count 17 ",6,copy-all,late" a.csv
# a strategy with a comma or a quote is one quoted field
expect 0 "$bufdiff" run "$seed" --strategy 'exec:cat >/dev/null; echo "{}" # a,b' --memory-trace q.csv
[ "$(sed -n 2p q.csv)" = '1,24,5,1,"exec:cat >/dev/null; echo ""{}"" # a,b",sync' ] || fail "quoted: $(sed -n 2p q.csv)"

# --- plot: a --memory-trace file as M(t), a curve per run and schedule
expect 0 "$bufdiff" plot a.csv --html plot.html
count 24 '<g class="series"' plot.html
grep -qF '<title>run 3: plan, random:8</title>' plot.html || fail "plot.html: no curve of run 3 under random:8"
printf 'step,bytes,line\n1,2,3\n2,x,3\n' >bad.csv
expect 2 "$bufdiff" plot bad.csv --html p.html
has "bad.csv:3:3: error: bytes must be an integer"
has "2,x,3"
has "  ^"
printf 'step,bytes,line\n1,2,3\n2,4,3,1,"abc\n' >bad.csv
expect 2 "$bufdiff" plot bad.csv --html p.html
has "bad.csv:3:9: error: unterminated quoted field"
printf 'step,bytes\n' >bad.csv
expect 2 "$bufdiff" plot bad.csv --html p.html
has "bad.csv:1:1: error: not a --memory-trace file (its header starts step,bytes,line)"
expect 2 "$bufdiff" plot a.csv
has "bufdiff plot: the page needs --html FILE"

# --- run --html FILE: the panels, the blamed lines and edge
expect 0 "$bufdiff" run "$seed" --html seed.html
for id in cause program graph defuse timeline memory mt decisions dtable errors; do
	grep -qF "id=\"$id\"" seed.html || fail "seed.html: no #$id"
done
count 1 '<div class="ln reader"' seed.html
count 1 '<div class="ln victim"' seed.html
count 1 'class="edge blame"' seed.html && grep -qF '(run 2, 4)' seed.html || fail "seed.html: no blamed edge"
grep -qF 'run 2: plan, sync: y:x' seed.html || fail "seed.html: no decision on hover"
grep -q 'src=\|href="http' seed.html && fail "seed.html: not self-contained"
# the culprit: its line, its node, its cells; the fix; no word `ready`
count 1 '<div class="ln writer culprit" id="line-5"' seed.html
count 1 '<span class="badge">culprit y:x (run 2, 4)</span></div>' seed.html
count 1 'class="node culprit"' seed.html
occurs 2 '<td class="inplace culprit">y:x<span class="badge">culprit</span></td>' seed.html
count 2 '<p class="fix">fix: y:x -&gt; y:new (one-shot takes y:new: conflict: read of %x by %z at ' seed.html
grep -qF '>ready<' seed.html && fail "seed.html: a visible ready"
grep -qF '<svg id="mt" xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 1000 ' seed.html || fail "seed.html: M(t) not full width"
expect 0 "$bufdiff" run "$src/cases/loops/cross-iteration-read.yaml" --html loop.html
grep -qF 'next trip' loop.html || fail "loop.html: no back edge"
# the blamed edge says on which trips (Graphviz: one <text> per line)
grep -qF '>written on trip 0 of the for at cross&#45;iteration&#45;read.yaml:8:5</text>' loop.html || fail "loop.html: no writer's trip on the edge"
grep -qF '>read on trip 1 of the for at cross&#45;iteration&#45;read.yaml:8:5</text>' loop.html || fail "loop.html: no reader's trip on the edge"
count 1 '<p class="trips">written on trip 0 of the for at ' loop.html
# and in which arm of an if, or after which edge of a CFG
expect 0 "$bufdiff" run "$src/cases/lastuse/branches.yaml" --html branch.html
grep -qF '>written on trip 0 of the for at branches.yaml:7:5, in the else&#45;branch of the if at branches.yaml:9:7</text>' branch.html || fail "branch.html: no arm on the edge"
expect 0 "$bufdiff" run "$src/cases/cfg/view-on-back-edge.yaml" --html cfg.html
grep -qF '>written in ^bb1 after the edge ^bb1 &lt;&#45; ^bb2 (branch 2 of the body) at view&#45;on&#45;back&#45;edge.yaml:19:5</text>' cfg.html || fail "cfg.html: no edge of the CFG on the blamed edge"
expect 0 "$bufdiff" run "$src/cases/async/two-streams-race.yaml" --html async.html
grep -qF '>stream 2</text>' async.html || fail "async.html: no lane of stream 2"
grep -qF 'class="ev viol race"' async.html || fail "async.html: no racing access"

# everything from the case is escaped; control characters show as \xNN
cat >odd.yaml <<'EOF'
case: "odd/<b id=\"injected\">x</b>\u0001"
about: "a <script>window.bad=1</script> & \u0007"
program: |
  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %y = add %x, 10 : tensor<3xi32>
    return %y
  }
inputs:
  x: [1, 2, 3]
EOF
expect 0 "$bufdiff" run odd.yaml --html odd.html
grep -qF '<b id="injected">' odd.html && fail "odd.html: markup from the case"
grep -qF '<script>window.bad' odd.html && fail "odd.html: script from the case"
grep -qF 'case odd/&lt;b id=&quot;injected&quot;&gt;x&lt;/b&gt;\x01</h1>' odd.html || fail "odd.html: heading not escaped"
grep -qF 'a &lt;script&gt;window.bad=1&lt;/script&gt; &amp; \x07' odd.html || fail "odd.html: about not escaped"

# an unreadable case still gets its page; an unwritable page is exit 2
expect 2 "$bufdiff" run missing.yaml --html missing.html
grep -qF 'id="error"' missing.html || fail "missing.html: no error"
expect 2 "$bufdiff" run "$seed" --html /nonexistent/dir/x.html
has "bufdiff: cannot write /nonexistent/dir/x.html: No such file or directory"

# --- check --html DIR: a page per case and an index
expect 0 "$bufdiff" check "$src/cases/seed" --html pages
for f in index case-0001 case-0002 case-0003; do
	[ -s "pages/$f.html" ] || fail "pages/$f.html missing"
done
count 3 '<td><a href="case-' pages/index.html
count 1 '<p id="totals"><b>3 cases</b>: <span class="ok" data-n="3">3 passed</span>, <span data-n="0">0 failed</span>, <span data-n="0">0 in error</span>; by verdict: <span data-verdict="agree">agree 0</span>, <span data-verdict="diverge">diverge 3</span>,' pages/index.html
# a failing case: its row red, its cause in the cells, in the totals
mkdir two && cp "$seed" two/
# (the seed's program and expectations, one run that must agree)
sed -e '/^case:/s/.*/case: index\/fails/' -e '/^runs:/q' "$seed" >two/fails.yaml
printf '  - strategy: inplace-all\n    verdict: agree\n' >>two/fails.yaml
expect 1 "$bufdiff" check two --html both
count 1 '<span class="ok" data-n="1">1 passed</span>, <span class="bad" data-n="1">1 failed</span>' both/index.html
count 1 '<tr class="failed"><td data-key="1">1</td><td><a href="case-0001.html">index/fails</a></td><td>two/fails.yaml</td><td class="status bad" data-key="1">FAIL</td><td>diverge</td><td>stale-read</td><td>%z at fails.yaml:6:5</td><td class="culprits">y:x</td><td class="fix" title="y:x -&gt; y:new (one-shot takes y:new: conflict: read of %x by %z at two/fails.yaml:6:5 after the write of %y at two/fails.yaml:5:5 into the buffer of %x; %x defined at two/fails.yaml:4:14)">y:x -&gt; y:new</td><td>run 1 (inplace-all): verdict diverge, expected agree</td></tr>' both/index.html
count 1 '<tr class="passed"><td data-key="2">2</td>' both/index.html
# two culprits: both decisions to flip in the cell, both lines on hover
expect 0 "$bufdiff" check "$src/cases/alias/shifted-views.yaml" --html shifted
count 1 '<td class="culprits">r:lo, a:hi</td><td class="fix" title="r:lo -&gt; r:new (one-shot also takes r:lo)&#10;a:hi -&gt; a:new (one-shot takes a:new: conflict: ' shifted/index.html
count 1 '>r:lo -&gt; r:new, a:hi -&gt; a:new</td>' shifted/index.html
grep -qF "<table id=\"index\" class=\"sortable\"><thead><tr><th>#</th><th>case</th><th>file</th><th>status</th><th>verdict</th><th>violation</th><th>location</th><th>culprits</th><th>fix</th><th>message</th></tr></thead>" both/index.html || fail "index: columns"
: >plain
expect 2 "$bufdiff" check "$seed" --html plain
has "bufdiff: cannot make the directory plain"
expect 2 "$bufdiff" print "$seed" --html x.html
has "bufdiff print: option '--html' is not valid here"

# --- fuzz --html DIR: the failures' pages beside their repros (one per
# bucket: seeds 1-3 fail in one, in the mix before blocks)
expect 1 "$bufdiff" fuzz --strategy inplace-all --count 3 --seed 1 --no-reduce --mix 127 --html fz
for f in index case-0001 inplace-all-1; do
	[ -s fz/$f.* ] || fail "fz/$f missing"
done
count 1 '<td><a href="case-' fz/index.html
grep -qF '<td>stale-read</td>' fz/index.html || fail "fz/index.html: no violation"
# a repro fails `check` until the bug is fixed: a red FAIL row, counted
count 1 '<tr class="failed"><td data-key="1">1</td><td><a href="case-0001.html">fuzz/inplace-all-1</a></td><td>fz/inplace-all-1.yaml</td><td class="status bad" data-key="1">FAIL</td><td>diverge</td><td>stale-read</td>' fz/index.html
count 1 '<span data-n="0">0 passed</span>, <span class="bad" data-n="1">1 failed</span>' fz/index.html
# every SVG text of every page above inside its viewBox
python3 "$src/tests/html/svgbounds.py" *.html pages/*.html both/*.html fz/*.html >"$out" || fail "text outside an SVG's viewBox"
echo "ok: html-cli"
