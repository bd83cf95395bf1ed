/*
 * ctl.h: what ctlfile.c, which cuts control writes into lines, and
 * state.c, which prints the state, take from devtrace.c, which runs them.
 */
int	ctlrun(Dev *d, char *line, uint32_t pid);	/* one line, NUL-terminated, checked: 0 or an errno */
int	ctlrefuse(Dev *d, int err);	/* a refusal before any command: its text in Dev.err; its errno */
void	changed(Dev *d);	/* a new control generation: writers decide again */
extern const char *const policies[];	/* Pring, Pfill, Pblock by name */
