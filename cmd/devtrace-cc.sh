#!/bin/sh
# devtrace-cc: a C compiler that leaves devtrace hook sites in what it builds.
# Use it as CC (make CC=devtrace-cc) or take its flags (--cflags).
usage() {
	cat <<'EOF'
usage: devtrace-cc [--classic] [COMPILER ARGUMENTS...]
       devtrace-cc [--classic] --cflags | --ldflags | --cflags --ldflags
       devtrace-cc --help

Compiles with hook sites at every function entry, then runs the real
compiler ($DEVTRACE_CC, else cc) with the arguments given.

  (default)   patchable entries (@GCC_SITEFLAGS@ with gcc):
              NOPs at each function's entry that the runtime turns into
              a skip-branch; a program runs at NOP speed when nothing
              traces it.  With -g, whose debug information names and
              types the calls' arguments (-g0 after it: none).  Your
              own -fpatchable-function-entry is refused: the compiler
              would keep one of the two, and only devtrace's makes sites.
  --classic   -finstrument-functions: always-called hooks, E and X
              records without arguments or return values
              (also DEVTRACE_MODE=classic); a link binds them at load
              (-Wl,-z,now), so no first call times their lookup
  either      -I the folder of <devtrace/probe.h> (DEVTRACE_PROBE)
  --cflags    print the flags for build systems that take CFLAGS
  --ldflags   print the flags that link the runtime (-ldevtrace), for
              programs that attach by themselves, without devtrace run
              (with --cflags: both on one line, as pkg-config prints them)
  --help      this text

The runtime itself (lib/libdevtrace.so) is never built with these flags;
a compile that defines DEVTRACE_RUNTIME gets none of them.
EOF
}

mode=${DEVTRACE_MODE:-patch}
cc=${DEVTRACE_CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
libdir=$(cd "$here/../lib" 2>/dev/null && pwd || echo "$here/../lib")
# <devtrace/probe.h>, for DEVTRACE_PROBE (devtrace(4))
incdir=$(cd "$here/../include" 2>/dev/null && pwd || echo "$here/../include")

flags() {
	case $mode in
	classic)
		echo "-finstrument-functions -I$incdir" ;;
	*)
		# the ISA's site flags, put in by the build (arch/*/siteflags),
		# and -g: the debug information types the calls' arguments
		# (devtrace sigs) and changes no code; a later -g0 still wins
		if $cc --version 2>/dev/null | grep -qi clang; then
			echo "@CLANG_SITEFLAGS@ -g -I$incdir"
		else
			echo "@GCC_SITEFLAGS@ -g -I$incdir"
		fi ;;
	esac
}

# classic: the hooks bound at load (-z now), not at their first call,
# whose time would then hold the dynamic linker's lookup: the first
# traced call of a run returns through the first __cyg_profile_func_exit
bindnow() {
	if [ "$mode" = classic ]; then echo "-Wl,-z,now"; fi
}

ldflags() {
	now=$(bindnow)
	echo "-L$libdir -Wl,-rpath,$libdir -Wl,--push-state,--no-as-needed -ldevtrace -Wl,--pop-state${now:+ $now}"
}

# printed: --cflags, --ldflags or both, printed after the mode is known
printed=
while [ $# -gt 0 ]; do
	case $1 in
	--classic) mode=classic; shift ;;
	--patch) mode=patch; shift ;;
	--cflags) printed="$printed c"; shift ;;
	--ldflags) printed="$printed l"; shift ;;
	--help|-h) usage; exit 0 ;;
	*) break ;;
	esac
done
case $mode in
classic|patch) ;;
*) echo "devtrace-cc: unknown DEVTRACE_MODE '$mode' (patch or classic)" >&2; exit 2 ;;
esac
# both on one line, cflags first, as pkg-config --cflags --libs
case $printed in
*c*l*|*l*c*) echo "$(flags) $(ldflags)"; exit 0 ;;
*c*) flags; exit 0 ;;
*l*) ldflags; exit 0 ;;
esac

for a in "$@"; do
	case $a in
	-DDEVTRACE_RUNTIME|-DDEVTRACE_RUNTIME=*) exec $cc "$@" ;;
	esac
done
# the sites are devtrace's -fpatchable-function-entry: with the user's
# too, the compiler keeps one, and sleds not of the site's size are no
# sites ("was it built with devtrace-cc?" at run time); so, refused.
# Classic builds add none: theirs passes.
[ "$mode" = classic ] || for a in "$@"; do
	case $a in
	-fpatchable-function-entry*)
		for f in $(flags); do case $f in -fpatchable-function-entry=*) ours=$f;; esac; done
		echo "devtrace-cc: $a: devtrace-cc adds its own, $ours, for the hook sites" \
			"the runtime patches; the compiler keeps only one of the two, so leave yours out" >&2
		exit 2 ;;
	esac
done
# a link (no -c, -S, -E, -M*) of a classic build binds its hooks at load
link=$(bindnow)
for a in "$@"; do
	case $a in
	-c|-S|-E|-M|-MM) link= ;;
	esac
done
# the flags go first, so a later -g0 or -fno-instrument-functions on the
# command line still wins
# shellcheck disable=SC2086  # link: one word, or none
exec $cc $(flags) $link "$@"
