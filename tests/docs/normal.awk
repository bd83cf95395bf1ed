# normal.awk: a line of output reduced to what is the same from run to
# run: every word of hex digits that holds a digit (pcs, ticks, pids,
# counts, sizes) becomes N, runs of blanks one blank.
{
	s = $0; out = ""
	while (match(s, /[0-9A-Za-z_]+/)) {
		w = substr(s, RSTART, RLENGTH)
		if (w ~ /^[0-9a-fA-F]+$/ && w ~ /[0-9]/) w = "N"
		out = out substr(s, 1, RSTART - 1) w
		s = substr(s, RSTART + RLENGTH)
	}
	out = out s
	gsub(/[ \t]+/, " ", out); sub(/^ /, "", out); sub(/ $/, "", out)
	print out
}
