#!/bin/sh
# A tool that refuses: two lines on stderr, exit 3.
cat >/dev/null
echo "fake-tool: cannot bufferize this program" >&2
echo "fake-tool: giving up" >&2
exit 3
