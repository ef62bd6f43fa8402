#!/bin/sh
# free-in-branch.sh: a bufferizer with a memory-planning bug.  In @main it
# frees the first tensor computed before the first top-level `if` (an
# elementwise op, a buffer of its own) right after the first op of the
# if's then-branch; the else-branch never frees it, and the free replaces
# the strategy's own.  Read after the if: a use after free when the
# then-branch runs.  Answers {} when @main has no such shape.
awk '
/^func @main\(/ { main = 1; next }
/^func / { main = 0 }
!main || done { next }
!t && /^  %[a-z0-9]+ = (add|sub|mul|div|max|min|neg|abs|relu) [^=]*: tensor<[^?]*>$/ &&
    !/ into / { t = substr($1, 2) }
t && /^  (%[a-z0-9]+ = )?if / { inif = 1; next }
inif && /^    %[a-z0-9]+ = / { after = substr($1, 2); done = 1 }
inif && /^  }/ { inif = 0 }
END {
	if (after)
		printf "{\"free\": {\"%s\": \"after %s\"}}\n", t, after
	else
		print "{}"
}'
