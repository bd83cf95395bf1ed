/*
 * copy.c: the paper's copy loop in user space: read from /dev/zero and
 * write to /dev/null, 1 MiB at a time, through a few functions.
 * usage: copy [MIB [BLOCKKIB]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static __attribute__((noinline)) long
readblock(int fd, char *buf, long n)
{
	long got = 0, r;

	while (got < n) {
		r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got;
		got += r;
	}
	return got;
}

static __attribute__((noinline)) long
writeblock(int fd, const char *buf, long n)
{
	long put = 0, w;

	while (put < n) {
		w = write(fd, buf + put, n - put);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return put;
		put += w;
	}
	return put;
}

static __attribute__((noinline)) long
copyblock(int in, int out, char *buf, long n)
{
	long r = readblock(in, buf, n);

	return r > 0 ? writeblock(out, buf, r) : r;
}

int
main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 2048;
	long bs = (argc > 2 ? atol(argv[2]) : 1024) * 1024;
	long total = 0, i, n;
	char *buf = malloc(bs);
	int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);

	if (buf == NULL || in < 0 || out < 0 || bs <= 0) {
		perror("copy");
		return 1;
	}
	for (i = 0; i < mib * 1024 * 1024 / bs; i++) {
		if ((n = copyblock(in, out, buf, bs)) != bs) {
			fprintf(stderr, "copy: short copy after %ld bytes\n", total);
			return 1;
		}
		total += n;
	}
	printf("copied %ld bytes in %ld blocks of %ld\n", total, i, bs);
	return 0;
}
