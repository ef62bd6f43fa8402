#!/bin/sh
# A tool that says nothing and exits 0.
cat >/dev/null
