# layout.awk: from `readelf --debug-dump=info` of an object, each
# structure's size and each member's offset, as "Struct size N" and
# "Struct.member N" lines in the order of the DWARF (anonymous ones "?").
function val(s) { sub(/^.*: /, "", s); return s }
/DW_TAG_/ {
	tag = $0; sub(/^.*\(DW_TAG_/, "", tag); sub(/\).*$/, "", tag)
	split($1, lv, /[<>]/); level = lv[2]
	if (tag == "structure_type" || tag == "union_type") {
		sname[level] = "?"; pending = "s"; slevel = level
	} else if (tag == "member") {
		mname = "?"; pending = "m"; owner = sname[level - 1]
	} else
		pending = ""
	next
}
pending == "s" && /DW_AT_name/ { sname[slevel] = val($0); next }
pending == "s" && /DW_AT_byte_size/ { print sname[slevel], "size", val($0); next }
pending == "m" && /DW_AT_name/ { mname = val($0); next }
pending == "m" && /DW_AT_data_member_location/ { print owner "." mname, val($0); next }
