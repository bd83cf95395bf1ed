# plot.sh: sourced by the plots/ wrappers after common.sh: the plumbing
# they share.  A plot is a gnuplot file of looks (NAME.gp) and the data
# and plot command its awk program writes (into $tmp); with -o OUT,
# gnuplot draws OUT, else the gnuplot input goes to standard output.
plots=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)

# plotsize WIDTHxHEIGHT: sets w and h, or bad usage
plotsize() {
	case $1 in [1-9]*x[1-9]*) w=${1%x*} h=${1#*x};; *) bad "bad -g $1";; esac
	case $w$h in *[!0-9]*) bad "bad -g $1";; esac
}

# plotterm OUT: sets term, the gnuplot terminal for OUT ("" for none)
plotterm() {
	term=
	case $1 in
	'') ;;
	*.png)
		term=png
		# </dev/null: after -e, gnuplot reads commands from standard
		# input, the plot's data when it is piped
		gnuplot -e 'set terminal' < /dev/null 2>&1 | grep -q pngcairo && term=pngcairo;;
	*.svg) term="svg dynamic";;
	*) bad "-o $1: the name must end in .png or .svg";;
	esac
}

# plottmp: sets tmp, a file removed at exit, for the awk program's output
plottmp() {
	tmp=$(mktemp) || exit 1
	trap 'rm -f "$tmp"' EXIT
	trap 'exit 1' HUP INT TERM
}

# plotdraw LOOKS.gp: the looks and $tmp into gnuplot writing $out at
# $w x $h, or to standard output without -o.  The printed input draws
# by itself too: "gnuplot plotme" on a terminal without a screen (as
# gnuplot starts with no DISPLAY) writes plotme.png next to it
# (plot.png when it reads standard input).
plotdraw() {
	if [ -z "$out" ]; then
		plotterm x.png
		cat <<-GP
		if (GPVAL_TERM eq 'unknown') {
		  set terminal $term size $w,$h font ',10' background rgb 'white'
		  set output (ARG0 eq '' ? 'plot.png' : ARG0.'.png')
		}
		GP
		cat "$plots/$1" "$tmp"
		return
	fi
	q=$(printf '%s' "$out" | sed "s/'/''/g")	# a gnuplot single-quoted string
	{
		echo "set terminal $term size $w,$h font ',10' background rgb 'white'"
		echo "set output '$q'"
		cat "$plots/$1" "$tmp"
	} | plotkeep | gnuplot
}

# plotkeep: standard input to standard output, and also into the file
# DEVTRACE_PLOTINPUT names, if set: what gnuplot drew, to check
plotkeep() {
	if [ -n "${DEVTRACE_PLOTINPUT-}" ]; then tee -- "$DEVTRACE_PLOTINPUT"; else cat; fi
}
