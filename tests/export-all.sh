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
