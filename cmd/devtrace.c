/*
 * devtrace: the device from the command line.  ctl, cat and state go
 * through the shared memory directly, so they work where FUSE cannot
 * be mounted, and so does record; run, start, stop and status manage
 * the server.  This file is the table of commands; each command is the
 * file of its name (client.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/client.h"

static Cmd cmds[];
static int ncmds;

static void
usage(FILE *f)
{
	int i;

	fprintf(f, "usage: devtrace [-d dir] command [option ...] [arg ...]\n");
	for (i = 0; i < ncmds; i++)
		fprintf(f, "  %-7s %-22s %s\n", cmds[i].name, cmds[i].args, cmds[i].what);
	fprintf(f, "the device is the one served in dir: -d, else $DEVTRACE_DIR, else /run/devtrace as root,\n"
		"else $XDG_RUNTIME_DIR/devtrace; `devtrace command --help' tells more\n");
}

static Cmd cmds[] = {
	{ "run", xrun, "[-t GLOB ...] [-p EXPR] [-P POLICY] [--min DUR] [-o FILE] [-v] [--] prog ...", "run prog attached to the device (LD_PRELOAD), starting a server if none runs; -t glob: a whole session, printing the call flow" },
	{ "ctl", xctl, "[command ...]", "write a command line, the arguments or standard input, as echo ... > tracectl does" },
	{ "cat", xcat, "[-f] | FILE", "print the queued records, consuming them, as cat trace does; -f, --follow: wait for more; FILE: #hz, #clock, then the records devtrace record saved in it" },
	{ "record", xrecord, "[-t GLOB ...] [-p EXPR] [-P POLICY] [-j N] -o FILE [prog ...]", "save the records, binary, into FILE as fast as they are written, until SIGINT or prog's exit, the symbols and signatures of their objects beside it (FILE.syms, FILE.sigs); -t glob: a session of its own, watching prog" },
	{ "info", xinfo, "FILE ...", "tell what a recording of devtrace record is: command, pid, start, host, kernel, hz, records, lost, duration, objects" },
	{ "dump", xdump, "--perfetto|--speedscope FILE", "write a recording of devtrace record for a viewer, on standard output: Perfetto's native trace (protobuf TrackEvent: a track per thread, arguments and return values from FILE.sigs) or speedscope's evented JSON (a profile per thread)" },
	{ "replay", xreplay, "[-t MIN] [-D N] [-F GLOB] [-N GLOB] [--tid N] [-T START..END] FILE ...", "the call flow of a recording, as run -t prints it; -t: calls at least MIN long (10us), with their callers; -D: less than N deep; -F: GLOB's calls and below; -N: not GLOB's calls; --tid: thread N's; -T: the calls inside a window of time" },
	{ "report", xreport, "[-s KEY] [--threads] [--diff G] FILE", "per function of a recording: calls, total, self, min, avg, max ns; -s: sort by total, self, calls, min, avg, max or name; --threads: per thread; --diff G: two recordings side by side" },
	{ "graph", xgraph, "[--callers] FILE [GLOB]", "the call graph of a recording below GLOB's functions (or each thread's bottom calls): each path with its calls and total ns, as uftrace graph; --callers: the backtraces to GLOB's functions" },
	{ "state", xstate, "", "print the device's state, as cat tracectl does" },
	{ "syms", xsyms, "", "print the symbol file: pc name object, one line per function" },
	{ "sigs", xsigs, "[object ...]", "print the functions' signatures from the objects' debug information (DWARF), by default the symbol file's objects: name return-class arg:class:word ..." },
	{ "aggs", xaggs, "[-m] [-t GLOB -a DEF ... [-p EXPR] prog ...]", "print the aggregations, as cat aggs does; -m: one line a key and bucket, as cat aggraw does; -t glob: a session of its own, aggregating prog's calls" },
	{ "merge", xmerge, "HOST TRACECTL TRACE ...", "merge hosts' records in one time line: each host's ticks made real-time ns through its #hz and #clock, its threads marked with its number (#host N HOST)" },
	{ "status", xstatus, "", "tell whether a server runs, its pid and directory (exit 1 if none)" },
	{ "start", xstart, "[devtraced option ...]", "start a server unless one runs" },
	{ "stop", xstop, "", "stop the server and wait until it is gone" },
};
static int ncmds = sizeof cmds / sizeof cmds[0];

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		}
		if ((strcmp(argv[i], "-d") == 0 || strcmp(argv[i], "--dir") == 0) && i + 1 < argc)
			setenv("DEVTRACE_DIR", argv[++i], 1);
		else if (strncmp(argv[i], "--dir=", 6) == 0)
			setenv("DEVTRACE_DIR", argv[i] + 6, 1);
		else {
			fprintf(stderr, "devtrace: %s %s\n", argv[i],
				strcmp(argv[i], "-d") == 0 ? "needs a directory" : "is an unknown option");
			usage(stderr);
			return 2;
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[i], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (int j = 0; j < ncmds; j++)
		if (strcmp(argv[i], cmds[j].name) == 0)
			return cmds[j].fn(&cmds[j], argc - i, argv + i);
	fprintf(stderr, "devtrace: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
