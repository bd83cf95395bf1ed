# common.sh: sourced by the wrappers in scripts/ and plots/ after they
# set prog and define usage().  Options every script shares: -h and
# --help print the usage; -v hz=N and -v ctl=TRACECTL set the cycle
# counter frequency for scripts that show time.
export LC_ALL=C		# same sorting and number format everywhere
AWK=${AWK:-awk}
scripts=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
case $scripts in */plots) scripts=${scripts%/plots}/scripts;; esac
lib=$scripts/lib
hz= ctl=
for a in "$@"; do
	case $a in
	--help) usage; exit 0;;
	--) break;;
	esac
done
bad() { echo "$prog: $*" >&2; usage >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 1; }
# optcommon OPT ARG: the options all scripts share; bad usage otherwise
optcommon() {
	case $1 in
	h) usage; exit 0;;
	v)
		case $2 in
		hz=*) hz=${2#hz=};;
		ctl=*) ctl=${2#ctl=};;
		*) bad "unknown variable: -v $2";;
		esac;;
	:) bad "option -$2 needs an argument";;
	*) bad "unknown option -$2";;
	esac
}
# runawk PROGRAM [AWKARGS...] -- FILES: the shared library, then PROGRAM
runawk() {
	p=$1; shift
	exec "$AWK" -v "PROG=$prog" -v "hz=$hz" -v "ctl=$ctl" -f "$lib/lib.awk" -f "$lib/$p.awk" "$@"
}
