#!/bin/sh
# A tool that never answers.  hang.sh PIDFILE: a child of its own (another
# member of the process group) writes its pid to PIDFILE, then both sleep;
# a caller that kills the whole group leaves no sleeper behind.
sh -c 'echo $$ >"$1"; exec sleep 300' sh "$1" &
exec sleep 300
