/*
 * ctl.h: what ctlfile.c, which cuts control writes into lines, takes
 * from devtrace.c, which runs them.
 */
int	ctlrun(Dev *d, char *line, uint32_t pid);	/* one line, NUL-terminated, checked: 0 or an errno */
int	ctlrefuse(Dev *d, int err);	/* a refusal before any command: its text in Dev.err; its errno */
