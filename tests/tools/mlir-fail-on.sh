#!/bin/sh
# mlir-fail-on.sh WORD LOG [mlir-opt options]: mlir-opt-22, except that it
# fails (exit 1) on any input that contains WORD.  Each call appends to LOG
# "batch" (a module of nested modules, from fuzz) or "single", and "ok" or
# "fail".
word=$1 log=$2
shift 2
in=$(cat)
case $in in
"module {"*) kind=batch ;;
*) kind=single ;;
esac
case $in in
*"$word"*) r=fail ;;
*) r=ok ;;
esac
echo "$kind $r" >>"$log"
if [ $r = fail ]; then
	echo "fake-tool: I do not do $word" >&2
	exit 1
fi
printf '%s\n' "$in" | exec mlir-opt-22 "$@"
