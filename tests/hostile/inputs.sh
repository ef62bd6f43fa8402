#!/usr/bin/env bash
# Bounded inputs (docs/trust.md): every file bufdiff reads is a regular
# file read up to a limit; a FIFO is refused without blocking (inside a
# directory `check` walks too), a device, socket or directory is refused,
# and a longer file is an error, not 2 GB of memory.  Each run is bounded
# by `timeout` so that a regression hangs no CI.
B=$1 S=$2
. "$S/tests/expect.sh"
seed=$S/cases/seed/old-input-still-needed.yaml
t() { expect "$1" timeout 20 "${@:2}"; }

mkfifo fifo.yaml fifo.json fifo.mlir
regular="only from a regular file (or \`-\`, stdin)"
t 2 "$B" run fifo.yaml
has "fifo.yaml: error: fifo.yaml is a FIFO: bufdiff reads a case file $regular"
t 2 "$B" run /dev/zero
has "/dev/zero: error: /dev/zero is a character device: bufdiff reads a case file $regular"
t 2 "$B" run "$seed" --plan /dev/zero
has "bufdiff: /dev/zero is a character device: bufdiff reads a decisions document $regular"
t 2 "$B" run "$seed" --plan fifo.json
has "bufdiff: fifo.json is a FIFO: bufdiff reads a decisions document $regular"
t 2 "$B" fuzz --merge /dev/zero
has "/dev/zero: error: /dev/zero is a character device: bufdiff reads a fuzz summary $regular"
t 2 "$B" fuzz --merge fifo.json
t 2 "$B" import fifo.mlir
has "bufdiff import: fifo.mlir is a FIFO: bufdiff reads an MLIR file $regular"
t 2 "$B" plot fifo.json --html p.html
has "bufdiff: fifo.json is a FIFO: bufdiff reads a memory trace $regular"
# check goes on past a FIFO named like a case
mkdir corpus && cp "$seed" corpus/a.yaml && mkfifo corpus/b.yaml
t 2 "$B" check corpus
has "[ok] corpus/a.yaml"
has "[FAIL] corpus/b.yaml: error: corpus/b.yaml is a FIFO: bufdiff reads a case file $regular"
has "1 passed, 1 failed"
# a socket (python3 binds one) is refused the same way
if python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock.yaml")' 2>/dev/null; then
	t 2 "$B" run sock.yaml
	has "sock.yaml: error: sock.yaml is a socket: bufdiff reads a case file $regular"
fi
# over the limit (64 MiB): a sparse file, and stdin
truncate -s 65M big.yaml big.json
t 2 "$B" run big.yaml
has "big.yaml: error: big.yaml is larger than 67108864 bytes, the limit for a case file"
t 2 "$B" run "$seed" --plan big.json
has "bufdiff: big.json is larger than 67108864 bytes, the limit for a decisions document"
head -c 70000000 /dev/zero | timeout 20 "$B" run - >"$out" 2>"$err"
[ $? = 2 ] || fail "run - over the limit"
has "-: error: stdin is larger than 67108864 bytes, the limit for a case file"
# a directory is no case file, and says what to run instead
t 2 "$B" run corpus
has "corpus: error: not a case file (a directory: use \`bufdiff check DIR\`)"
# a read of stdin that waits (a pipe nobody writes) ends at a signal
timeout --preserve-status -s INT 1 "$B" run - < <(sleep 5) >"$out" 2>"$err"
rc=$?
[ $rc = 130 ] || fail "run - interrupted while reading stdin: exit $rc"
has "-: error: cannot read stdin: Interrupted system call"
has "bufdiff: interrupted by SIGINT"
echo "inputs: ok"
