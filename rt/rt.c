/* rt.c: the runtime's state, and its debug output (DEVTRACE_DEBUG). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "rt/rt.h"

Rt rt = { .lock = PTHREAD_MUTEX_INITIALIZER };

void
rtdebug(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (!rt.debug)
		return;
	n = snprintf(buf, sizeof buf, "devtrace[%d]: ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		return;
}
