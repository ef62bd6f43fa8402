#!/bin/sh
# hoist-from-forall.sh: a bufferizer with a memory-planning bug.  In @main
# it hoists the first temporary of the first top-level forall's body (an
# elementwise op of a static shape, a buffer of its own) out of the
# forall, as if the trips ran one after the other: every trip computes it
# into one buffer.  Answers {} when @main has no such shape.
awk '
/^func @main\(/ { main = 1; next }
/^func / { main = 0 }
!main || t { next }
/^  (%[a-z0-9]+(, %[a-z0-9]+)* = )?forall / { body = 1; next }
body && /^    %[a-z0-9]+ = (add|sub|mul|div|max|min|neg|abs|relu) [^=]*: tensor<[^?]*>$/ &&
    !/ into / { t = substr($1, 2) }
body && /^  }/ { body = 0 }
END {
	if (t)
		printf "{\"hoist\": [\"%s\"]}\n", t
	else
		print "{}"
}'
