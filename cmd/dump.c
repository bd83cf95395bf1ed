/*
 * dump.c: devtrace dump --perfetto|--speedscope FILE, a recording of
 * devtrace record (capfile.h) for a viewer: Perfetto's native trace
 * (perfetto.c) or speedscope's evented JSON (speedscope.c).  Both
 * take the file's calls as report and graph do (dump.h's walk,
 * dumpwalk.c); arguments and return values are typed by FILE.sigs, as
 * sigs.awk types them.
 */
#include <getopt.h>
#include <stdio.h>
#include "cmd/client.h"
#include "cmd/dump.h"

int
xdump(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "perfetto", no_argument, NULL, 'p' },
		{ "speedscope", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static Dump d;
	int ch, form = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (ch == 'h') {
			cmdusage(c, stdout);
			return 0;
		}
		if (ch == '?') {
			fprintf(stderr, "devtrace dump: unknown option %s\n", argv[optind - 1]);
			cmdusage(c, stderr);
			return 2;
		}
		if (form != 0 && form != ch) {
			fprintf(stderr, "devtrace dump: --perfetto or --speedscope, not both\n");
			return 2;
		}
		form = ch;
	}
	if (form == 0 || optind + 1 != argc) {
		fprintf(stderr, "devtrace dump: %s\n", form == 0 ? "no format: give --perfetto or --speedscope" :
			optind == argc ? "no FILE (a file devtrace record wrote)" : "one FILE only");
		cmdusage(c, stderr);
		return 2;
	}
	d.path = argv[optind];
	return form == 'p' ? perfettodump(&d) : speedscopedump(&d);
}
