#!/bin/sh
# fail-on.sh WORD [LOG]: exit 1 when the program on stdin contains WORD,
# else answer `{}` (copy-all).  With LOG, append a line per call: the
# input's checksum and "fail" or "ok".
in=$(cat)
case $in in
*"$1"*) r=fail ;;
*) r=ok ;;
esac
[ -n "$2" ] && echo "$(printf '%s\n' "$in" | cksum) $r" >>"$2"
if [ $r = fail ]; then
	echo "fake-tool: I do not do $1" >&2
	exit 1
fi
echo '{}'
