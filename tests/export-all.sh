# export_all BUFDIFF CASES N TMP (sourced): every case under CASES exported
# for mlir-opt-N by one `bufdiff export CASE...` (a bufdiff per case costs
# the sanitizer builds a start-up each).  Sets:
#   files[]      the cases exported, in the order of their sections
#   export_bad[] "CASE: first error" of a case that loads but cannot be
#                exported (or ran out of memory)
#   export_skipped  how many cases do not load (cases/errors/: skipped)
# and writes TMP/all.mlir (the sections, `// -----` between: mlir-opt's
# -split-input-file) and TMP/K.mlir, section K+1 alone.
export_all() {
	local bufdiff=$1 cases=$2 n=$3 tmp=$4 f line
	local all=()
	while IFS= read -r f; do
		all+=("$f")
	done < <(find "$cases" -name '*.yaml' | LC_ALL=C sort)
	"$bufdiff" export "${all[@]}" --mlir-version "$n" --out "$tmp/all.mlir" \
		2>"$tmp/export.err"
	# the section headers name the cases exported
	mapfile -t files < <(sed -n 's|^// bufdiff export: ||p' "$tmp/all.mlir")
	awk -v d="$tmp" '/^\/\/ -----$/ { k++; next } { print > (d "/" k ".mlir") }' \
		"$tmp/all.mlir"
	declare -A done_=()
	for f in "${files[@]}"; do
		done_[$f]=1
	done
	export_bad=() export_skipped=0
	for f in "${all[@]}"; do
		[ -n "${done_[$f]:-}" ] && continue
		line=$(grep -m1 -F -- "$f:" "$tmp/export.err")
		if grep -q "error: cannot export\|out of memory" <<<"$line"; then
			export_bad+=("$f: $line")
		else
			export_skipped=$((export_skipped + 1))
		fi
	done
}

# split_ask TOOL N TMP ARGS...: sets asked[K] (K = 0..N-1) to 1 when TOOL
# ARGS printed something for section K+1 of TMP/all.mlir (-split-input-file,
# output on stdout), else 0.  One call asks every section; a call that
# dies (a crash or its timeout: everything after the section it died in
# is lost, and stdout's buffer with some before it) leaves the sections
# it completed (each followed by its `// -----`), the next ones are asked
# alone until the one that kills the tool, and a new call asks the rest.
# The tool runs as "${pre[@]}" TOOL: the caller's prefix (as bufdiff
# runs LLVM tools: its unwinder preloaded, LLVM_DISABLE_SYMBOLIZATION=1;
# else LLVM's crash handler can wait on malloc's lock to the timeout).
split_ask() {
	local tool=$1 n=$2 tmp=$3 from=0 k rc got
	shift 3
	asked=()
	while ((from < n)); do
		awk -v f="$from" '/^\/\/ -----$/ { k++; if (k > f) print; next } k >= f' \
			"$tmp/all.mlir" >"$tmp/rest.mlir"
		{ timeout 600 "${pre[@]}" "$tool" --split-input-file "$tmp/rest.mlir" "$@" \
			>"$tmp/ask.out" 2>/dev/null; } 2>/dev/null
		rc=$?
		# one line per section of the output: 1 when it has text
		mapfile -t got < <(awk 'BEGIN { s = 0 }
			/^\/\/ -----$/ { print full ? 1 : 0; full = 0; s++; next }
			NF { full = 1 }
			END { print full ? 1 : 0 }' "$tmp/ask.out")
		if ((rc < 124)); then
			for ((k = from; k < n; k++)); do
				asked[$k]=${got[$((k - from))]:-0}
			done
			return
		fi
		# died: the sections with their separator printed are complete
		for ((k = from; k < from + ${#got[@]} - 1; k++)); do
			asked[$k]=${got[$((k - from))]}
		done
		while ((k < n)); do
			{ timeout 60 "${pre[@]}" "$tool" "$tmp/$k.mlir" "$@" >"$tmp/ask.out" 2>/dev/null; } 2>/dev/null
			rc=$?
			asked[$k]=$((rc == 0))
			k=$((k + 1))
			((rc >= 124)) && break
		done
		from=$k
	done
}
