# todo.awk KNOWN TAP: the TAP of a bats run with the known failures that
# KNOWN lists (name TAB reason) marked "# TODO reason"; a listed test
# that passes gets a diagnostic saying its line can go.
FNR == NR {
	if ($0 !~ /^#/ && index($0, "\t")) {
		i = index($0, "\t")
		reason[substr($0, 1, i - 1)] = substr($0, i + 1)
	}
	next
}
/^(not )?ok [0-9]+ / {
	name = $0
	sub(/^(not )?ok [0-9]+ /, "", name)
	if (name in reason) {
		if ($0 ~ /^not ok/) {
			print $0 " # TODO " reason[name]
			next
		}
		print
		print "# known failure passes now: remove it from tests/soak/known: " name
		next
	}
}
{ print }
