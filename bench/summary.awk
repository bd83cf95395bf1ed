# summary.awk: the benchmark table from bench/run's raw rows.
# Input 1 (runs): round workload config ns kib status same hits lost filtered
# Input 2 (extra): name value unit [count]
# Prints the table; writes the machine-readable copy to out: tab-separated,
# a block of configurations, a blank line, a block of figures, each headed.

function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function median(a, n) {
	sort(a, n)
	return n == 0 ? "" : n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# median, min and max of the values in list (space-separated): sets lo, hi
function stats(list,    a, n) {
	n = split(list, a, " ")
	if (n == 0) { lo = hi = ""; return "" }
	sort(a, n)
	lo = a[1]; hi = a[n]
	return median(a, n)
}
# ns per traced call as a multiple of the floor measured in the same run
function xfloor(x) { return extra["floor"] > 0 ? x / extra["floor"] : "" }
function fmt(x, f) { return x == "" ? "-" : sprintf(f, x) }
function ms(x) { return x == "" ? "" : x / 1e6 }

FNR == NR {
	key = $2 SUBSEP $3
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	if (!($2 in wseen)) { wseen[$2] = 1; wl[++nw] = $2 }
	runs[key]++
	status[key] = $6
	if ($6 != "0") next
	ok[key]++
	ns[key] = ns[key] " " $4
	kib[key] = kib[key] " " $5
	hits[key] = hits[key] " " $8
	lost[key] = lost[key] " " $9
	filt[key] = filt[key] " " $10
	t[$2, $3, $1] = $4
	next
}
{ extra[$1] = $2; unit[$1] = $3; count[$1] = $4 }

END {
	# medians first: the ratio needs plain's time of the same round
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, wc, SUBSEP)
		med[k] = stats(ns[k]); mlo[k] = lo; mhi[k] = hi
		mkib[k] = stats(kib[k]); mhits[k] = stats(hits[k])
		mlost[k] = stats(lost[k]); mfilt[k] = stats(filt[k])
		r = ""
		for (x in t) {
			split(x, f, SUBSEP)
			if (f[1] == wc[1] && f[2] == wc[2] && t[f[1], "plain", f[3]] > 0)
				r = r " " t[x] / t[f[1], "plain", f[3]]
		}
		ratio[k] = stats(r); rlo[k] = lo; rhi[k] = hi
	}
	nc = split(conf, cl, " ")
	for (i = 1; i <= nw; i++) {	# calls per run: half the hits of tracing every function
		w = wl[i]
		calls[w] = mhits[w, "all"] > 0 ? mhits[w, "all"] / 2 : ""
	}
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, wc, SUBSEP); w = wc[1]; c = wc[2]
		base = med[w, "plain"]
		n = c == "one" ? (mhits[k] > 0 ? mhits[k] / 2 : "") : calls[w]
		# too few calls for a difference of noisy times to mean anything per call
		nsc[k] = c == "plain" || med[k] == "" || base == "" || n == "" || n < 100000 ? "" : (med[k] - base) / n
		perhit[k] = c == "pred" && mfilt[k] >= 200000 && med[k] != "" ? (med[k] - base) / mfilt[k] : ""
	}

	printf "%-13s %-6s %10s %19s %14s %8s %7s %7s %10s %9s  %s\n", "config", "load", "median ms", "min-max ms", "ratio (min-max)", "ns/call", "xfloor", "xuftr", "lost", "peak KiB", "goal"
	print "config\tworkload\tmedian_ms\tmin_ms\tmax_ms\tratio\tratio_min\tratio_max\tns_per_call\tx_floor\tx_uftrace\tlost\tpeak_kib\tok_runs\truns\tgoal" > out
	for (i = 1; i <= nw; i++) for (j = 1; j <= nc; j++) {
		w = wl[i]; c = cl[j]; k = w SUBSEP c
		if (!(k in seen)) continue
		goal = ""
		if (ok[k] == 0)
			goal = "did not run (" status[k] ")"
		else if (c == "off" && w == "lua")
			goal = sprintf("<= 1.03x: %s", ratio[k] <= 1.03 ? "met" : sprintf("MISSED by %.1f%%", (ratio[k] - 1.03) * 100))
		else if (c == "tracepipe" && nsc[w, "uftrace-pg"] > 0 && nsc[k] != "")
			goal = sprintf("<= 1.0x uftrace = %.1f ns: %s", nsc[w, "uftrace-pg"],
				nsc[k] <= nsc[w, "uftrace-pg"] ? "met" : sprintf("MISSED (%.2fx)", nsc[k] / nsc[w, "uftrace-pg"]))
		else if ((c == "all" || c == "record") && nsc[w, "uftrace-pg"] > 0 && nsc[k] != "")
			goal = sprintf("<= 0.4x uftrace = %.1f ns: %s; <= 2x floor: %s", nsc[w, "uftrace-pg"] * 0.4,
				nsc[k] <= nsc[w, "uftrace-pg"] * 0.4 ? "met" : sprintf("MISSED (%.2fx)", nsc[k] / nsc[w, "uftrace-pg"]),
				xfloor(nsc[k]) == "" ? "no floor" : xfloor(nsc[k]) <= 2 ? "met" : sprintf("MISSED (%.2fx)", xfloor(nsc[k])))
		else if (c == "pred" && perhit[k] != "")
			goal = sprintf("rejected hit %.1f ns < 10: %s", perhit[k], perhit[k] < 10 ? "met" : "MISSED")
		mlost[k] = c ~ /^(plain|nop|classic-nop)$/ ? "" : mlost[k]
		xf = nsc[k] == "" ? "" : xfloor(nsc[k])
		xu = nsc[k] == "" || !(nsc[w, "uftrace-pg"] > 0) ? "" : nsc[k] / nsc[w, "uftrace-pg"]
		printf "%-13s %-6s %10s %19s %14s %8s %7s %7s %10s %9s  %s\n", c, w, fmt(ms(med[k]), "%.1f"),
			med[k] == "" ? "-" : sprintf("%.1f-%.1f", mlo[k] / 1e6, mhi[k] / 1e6),
			ratio[k] == "" ? "-" : sprintf("%.3f (%.2f-%.2f)", ratio[k], rlo[k], rhi[k]),
			fmt(nsc[k], "%.1f"), fmt(xf, "%.2f"), fmt(xu, "%.2f"), fmt(mlost[k], "%d"), fmt(mkib[k], "%d"), goal
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", c, w, fmt(ms(med[k]), "%.3f"),
			fmt(ms(mlo[k]), "%.3f"), fmt(ms(mhi[k]), "%.3f"), fmt(ratio[k], "%.4f"), fmt(rlo[k], "%.4f"),
			fmt(rhi[k], "%.4f"), fmt(nsc[k], "%.2f"), fmt(xf, "%.3f"), fmt(xu, "%.3f"), fmt(mlost[k], "%d"), fmt(mkib[k], "%d"), ok[k], runs[k], goal > out
	}
	for (w in calls) if (calls[w] != "")
		printf "calls traced per run (all): %s %d\n", w, calls[w]

	print ""
	print "the device alone (bench/writers, no hooks):"
	show("dev-writer1", "1 writer thread fills the ring (devhit)", "")
	show("dev-writer2", "2 writer threads fill the ring (devhit)", "")
	show("dev-shm-fill1", "1 writer, the served device's ring (devrecord)", "")
	show("dev-shm-fill2", "2 writers, the served device's ring (devrecord)", "")
	show("dev-record", "one record written (devhit)", "")
	show("dev-rejected", "one hit rejected by /arg0 == -1/", "< 10 ns")
	show("dev-pred3false", "three-term predicate, false", "")
	show("dev-pred3true", "three-term predicate, true, record written", "")
	show("dev-devread", "records formatted by devread, one thread", "")
	show("dev-merge4", "records merged from 4 writers' rings (devreadraw)", "")
	show("dev-merge16", "records merged from 16 writers' rings (devreadraw)", "")
	if ("floor" in extra) {
		print "the floor of a traced call (bench/floor.c: two cycle-counter reads, two 64-byte slot writes):"
		show("floor", "per traced call, over the untraced call", "")
		show("floor-plain", "the untraced call of that loop", "")
	}
	if ("retpred-miss" in extra) {
		print "a redirected return (bench/retpred.c, leaf in a loop, interleaved):"
		show("retpred-plain", "not redirected, per iteration", "")
		show("retpred-miss", "redirected, back by jmp (devtrace): extra", "")
		show("retpred-missret", "redirected, back by a second ret: extra", "")
	}
	if ("reader-devtrace-cat" in extra || "reader-cat-null" in extra)
		print "the reader, from a full ring of 2^20 records:"
	show("reader-cat-null", "cat trace > /dev/null", ">= 25 Mrec/s")
	show("reader-cat-awk", "cat trace | awk", ">= 10 Mrec/s")
	show("reader-devtrace-cat", "devtrace cat > /dev/null (no FUSE)", ">= 25 Mrec/s")
	show("reader-devtrace-record", "devtrace record -o FILE (binary)", ">= 50 Mrec/s")
	show("reader-devtrace-catfile", "devtrace cat FILE > /dev/null (that file)", ">= 50 Mrec/s")
	if ("paired-off" in extra) {
		print "lua, plain / nop / off run back to back " count["paired-off"] " times (order rotated):"
		show("paired-nop", "patchable, not attached: median of ratios", "")
		show("paired-off", "attached, all sites off: median of ratios", "<= 1.03x")
		show("paired-min-nop", "patchable, not attached: ratio of fastest runs", "")
		show("paired-min-off", "attached, all sites off: ratio of fastest runs", "<= 1.03x")
	}
	if ("callgrind-plain" in extra) {
		print "callgrind, instructions of one Lua round (bench.lua 0.34; noise-free):"
		show("callgrind-plain", "uninstrumented", "")
		show("callgrind-noipara", "uninstrumented, -fno-ipa-ra", "ratio")
		show("callgrind-nop", "patchable, not attached", "ratio")
		show("callgrind-off", "patchable, attached, all sites off", "<= 1.03x")
		show("callgrind-plain-empty", "uninstrumented, lua -e ''", "")
		show("callgrind-off-empty", "attached all off, lua -e '': attach cost", "")
	}
}

function show(name, what, goal,    v, g, r) {
	if (!(name in extra)) return
	v = extra[name]; g = ""
	if (goal ~ /^< /) g = v + 0 < substr(goal, 3) + 0 ? "met" : "MISSED"
	else if (goal ~ /^>= /) g = v + 0 >= substr(goal, 4) + 0 ? "met" : sprintf("MISSED (%.0f%% of goal)", v / substr(goal, 4) * 100)
	else if (name ~ /^paired/ && goal != "")
		g = v <= 1.03 ? "met" : sprintf("MISSED by %.1f%%", (v - 1.03) * 100)
	else if (name ~ /^callgrind/ && goal != "" && extra["callgrind-plain"] > 0) {
		r = v / extra["callgrind-plain"]
		g = goal == "ratio" ? sprintf("%.4fx", r) : sprintf("%.4fx: %s", r, r <= 1.03 ? "met" : "MISSED")
		if (goal == "ratio") goal = ""
	}
	printf "  %-50s %12s %-6s %s\n", what, v, unit[name], goal == "" ? g : "goal " goal ": " g
	if (!figs++)
		print "\nfigure\tvalue\tunit\tgoal" > out
	printf "%s\t%s\t%s\t%s\n", name, v, unit[name], goal == "" ? g : goal ": " g > out
}
