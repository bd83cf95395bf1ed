# install.bats: make install into a DESTDIR, then the demo's pipeline
# with only the installed commands on PATH, from another directory.
load helper

setup_file() {
	export DEST=$BATS_FILE_TMPDIR/root
	submake -s install DESTDIR="$DEST" PREFIX=/usr
}

setup() {
	P=$DEST/usr
	export PATH=$P/bin:/usr/bin:/bin
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	W=$BATS_TEST_TMPDIR/work
	mkdir -p "$W"
	cd "$W" || return 1
}

teardown() {
	devtrace stop >/dev/null 2>&1 || true
}

@test "the installed files: commands, runtime, scripts, plots and pages" {
	for f in bin/devtrace bin/devtraced bin/devtrace-cc bin/devtrace-name \
		bin/devtrace-flow bin/devtrace-createplot lib/libdevtrace.so \
		share/devtrace/scripts/lib/common.sh share/devtrace/plots/timeline.gp \
		share/man/man1/devtrace.1 share/man/man1/devtrace-cc.1 \
		share/man/man1/devtrace-scripts.1 share/man/man1/devtrace-flow.1 \
		share/man/man4/devtrace.4 share/man/man8/devtraced.8 include/devtrace/probe.h; do
		assert [ -e "$P/$f" ]
	done
}

@test "the installed devtrace-cc finds the installed <devtrace/probe.h>: a probe's site and name" {
	run devtrace-cc -O1 -o fx "$ROOT/tests/hooks/fx_probe.c"
	assert_success
	run ./fx 10
	assert_output "queue 0 2"
	run readelf -p devtrace_probes fx
	assert_output --partial "probe:queue_full"
}

@test "every script and plot of the checkout is installed, with a command" {
	for f in "$ROOT"/scripts/* "$ROOT"/plots/*; do
		n=${f##*/}
		if [ ! -f "$f" ] || [ ! -x "$f" ]; then continue; fi
		case $n in *.*) continue;; esac
		assert [ -x "$P/bin/devtrace-$n" ]
		run "$P/bin/devtrace-$n" --help
		assert_success
		assert_line --index 0 --regexp "^usage: $n "
	done
}

@test "the manual pages pass mandoc -T lint" {
	run mandoc -T lint -W warning "$P"/share/man/man*/*
	assert_success
	assert_output ''
}

@test "devtrace run preloads the installed runtime" {
	run devtrace run -- sh -c 'echo "$LD_PRELOAD"'
	assert_success
	assert_output "$(readlink -f "$P/lib/libdevtrace.so")"
}

@test "devtrace-cc --ldflags names the installed runtime" {
	run devtrace-cc --ldflags
	assert_output --partial "-L$P/lib -Wl,-rpath,$P/lib "
}

@test "the demo's pipeline from the installed tree: build, trace, name, flow, plot" {
	cp "$BATS_TEST_DIRNAME/fixture.c" .
	devtrace-cc -O1 -o fixture fixture.c
	devtraced -n
	devtrace ctl 'trace work_* new work'
	devtrace ctl trace work on
	devtrace ctl start
	run devtrace run ./fixture
	assert_output 82
	devtrace cat > trace
	devtrace syms > names
	run sh -c 'devtrace-name names trace | cut -d" " -f1,2'
	assert_output "E work_outer
E work_inner
X work_inner
E work_inner
X work_inner
X work_outer"
	# from column 36 the flow is the function, indented by depth
	run sh -c 'devtrace-name names trace | devtrace-flow | cut -c36-'
	assert_output "FUNCTION
-> work_outer
  -> work_inner
  <- work_inner
  -> work_inner
  <- work_inner
<- work_outer"
	devtrace-createplot -s names -o timeline.png trace
	run od -An -c -N4 timeline.png
	assert_output ' 211   P   N   G'
}

@test "make uninstall leaves no file behind" {
	d=$BATS_TEST_TMPDIR/again
	submake -s install DESTDIR="$d" PREFIX=/opt/dt
	run find "$d" ! -type d
	refute_output ''
	submake -s uninstall DESTDIR="$d" PREFIX=/opt/dt
	run find "$d" ! -type d
	assert_output ''
}
