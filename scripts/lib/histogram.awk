# histogram.awk: quantize() of one field.
BEGIN { if (!fieldsel(FIELD)) die("unknown field: " FIELD) }
fieldhere() && (k = bucket($F_COL, uns)) != "" {
	C[k]++
	if (!N++) lo = hi = k
	if (k < lo) lo = k
	if (k > hi) hi = k
}
END {
	if (DIED) exit 2
	if (!N) exit 0
	# one empty bucket each side, as DTrace shows them
	if (lo > (uns ? 0 : -64)) lo--
	if (hi < 64) hi++
	# the value column widens for 64-bit bucket values
	w = 16
	for (k = lo; k <= hi; k++) if (length(label(k)) > w) w = length(label(k))
	printf "%" w "s  %s %s\n", "value", "------------- Distribution -------------", "count"
	# a run of empty buckets shows its first and last, "..." between
	for (k = lo; k <= hi; k++)
		SHOW[k] = C[k] || C[k - 1] || C[k + 1] || k == lo || k == hi
	for (k = lo + 1; k < hi; k++)
		if (!SHOW[k] && SHOW[k - 1] && SHOW[k + 1]) SHOW[k] = 1	# "..." saves nothing
	for (k = lo; k <= hi; k++) {
		if (!SHOW[k]) {
			if (SHOW[k - 1]) printf "%" w "s |\n", "..."
			continue
		}
		n = int(40 * C[k] / N + 0.5)
		for (bar = ""; n > 0; n--) bar = bar "@"
		printf "%" w "s |%-40s %.0f\n", label(k), bar, C[k]
	}
}
function label(k) { return sprintf("%.0f", bucketval(k)) }
