# check.awk: bench/run's checks as TAP, from its raw rows.
# Input 1 (runs): round workload config ns kib status same hits lost filtered
# Input 2 (extra): name value unit [count]
# Variables: conf "name:how:mode ...", wl "workloads", lttngok, uf (0 or 1),
# tiny and fib (the calls workload's call counts, from its output).

function t(okay, what, skip) {
	n++
	if (skip != "") printf "ok %d - %s # SKIP %s\n", n, what, skip
	else printf "%s %d - %s\n", okay ? "ok" : "not ok", n, what
}

FNR == NR {
	k = $2 SUBSEP $3
	runs[k]++
	if ($6 == "skip") skipped[k] = 1
	if ($6 != "0") { bad[k]++; st[k] = $6 }
	if ($7 != "1") diff[k]++
	if (!(k in minhits) || $8 < minhits[k]) minhits[k] = $8
	if (!(k in maxhits) || $8 > maxhits[k]) maxhits[k] = $8
	if ($10 > 0) filtered[k] = 1
	if ($9 != "-" && (!(k in maxlost) || $9 > maxlost[k])) maxlost[k] = $9
	next
}
{ extra[$1] = $2 }

END {
	nw = split(wl, w, " ")
	nc = split(conf, cf, " ")
	for (i = 1; i <= nw; i++) for (j = 1; j <= nc; j++) {
		split(cf[j], f, ":"); c = f[1]; how = f[2]; mode = f[3]
		k = w[i] SUBSEP c; name = c " " w[i]
		skip = ""
		if (how ~ /^uftrace/ && !uf) skip = "uftrace is not installed"
		if (how == "lttng" && !lttngok) skip = "LTTng cannot run here (not installed, or no session daemon)"
		if (skipped[k] && skip == "") skip = "skipped by bench/run"
		ran = runs[k] > 0 && bad[k] == 0
		t(ran, name ": every run ran and exited 0" (ran || skip != "" || !(k in st) ? "" : " (" st[k] ")"), skip)
		t(ran && diff[k] == 0, name ": output equals the uninstrumented run's", skip != "" ? skip : ran ? "" : "did not run")
		if (how == "rec" || how == "pipe") {	# lossless: the file has every hit
			t(ran && maxlost[k] == 0 && minhits[k] >= 2 * (tiny + fib) * (w[i] == "calls"), name ": every record in the file (lost at most " maxlost[k] ", hits " minhits[k] ")", ran ? "" : "did not run")
			continue
		}
		if (how != "dev") continue
		if (!ran) { t(0, name ": records as expected", "did not run"); continue }
		if (mode == "stopped")
			t(maxhits[k] == 0, name ": no records while tracing is stopped (hits " maxhits[k] ")")
		else if (mode == "pred")
			t(maxhits[k] == 0 && filtered[k], name ": the predicate rejects every hit, none recorded (hits " maxhits[k] ")")
		else if (mode == "one" && w[i] == "calls" && tiny > 0)
			# and the W marks of the rings' warm: a step of 4,096 slots, a mark each after the first
			t(minhits[k] >= 2 * tiny && maxhits[k] <= 2 * tiny + int(2 * tiny / 4096), name ": tiny traced: one E and one X per call, and at most a warm's mark every 4,096 (hits " minhits[k] "-" maxhits[k] ", want " 2 * tiny " to " 2 * tiny + int(2 * tiny / 4096) ")")
		else if (mode == "all" && w[i] == "calls" && tiny > 0)
			t(minhits[k] >= 2 * (tiny + fib), name ": every call recorded (hits " minhits[k] ", want >= " 2 * (tiny + fib) ")")
		else
			t(minhits[k] > 0, name ": records produced (hits " minhits[k] ")")
	}
	t(extra["dev-writer1"] > 0 && extra["dev-writer2"] > 0, "the device's writer rates were measured")
	t(extra["dev-rejected"] > 0, "the device's rejected-hit cost was measured")
	t(extra["floor"] > 0 && extra["floor-traced"] > extra["floor-plain"], "the floor of a traced call was measured (" extra["floor"] " ns)")
	if (retpred)
		t(extra["retpred-miss"] != "", "a redirected return's misprediction was measured")
	t(extra["reader-devtrace-cat"] > 0, "devtrace cat drained records from a full ring")
	t(extra["reader-devtrace-record"] > 0, "devtrace record saved records from a full ring")
	if ("reader-cat-null" in extra)
		t(extra["reader-cat-null"] > 0, "cat trace drained records from a full ring")
	else
		t(0, "cat trace drained records from a full ring", "no FUSE mount of the trace file")
	printf "1..%d\n", n
}
