#!/bin/sh
# A tool that crashes: it dies of SIGSEGV after reading its input.
cat >/dev/null
echo "fake-tool: about to crash" >&2
kill -SEGV $$
