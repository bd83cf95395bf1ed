/*
 * rpc.c: a client and a server over TCP, the remote test's request
 * that crosses hosts.  `rpc serve ADDR PORT N' answers N requests of
 * one connection, each through handle(); `rpc call ADDR PORT N' makes
 * them, each through call().  A request is 4 bytes, its answer too.
 * The server's handling begins once the request is in (not while it
 * waits for it) and ends before the answer goes out, so the client's
 * call encloses it by causality, not by chance.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int
full(int fd, void *buf, size_t n, int out)
{
	char *p = buf;
	ssize_t r;

	for (; n > 0; p += r, n -= r)
		if ((r = out ? write(fd, p, n) : read(fd, p, n)) <= 0)
			return -1;
	return 0;
}

/* the server's handling of the request x: its answer */
__attribute__((noinline)) int
handle(int x)
{
	return 2 * x + 1;
}

/* the client's call: the request out, the answer back */
__attribute__((noinline)) int
call(int fd, int x)
{
	if (full(fd, &x, sizeof x, 1) < 0 || full(fd, &x, sizeof x, 0) < 0)
		return -1;
	return x;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd, c, n, i, x, one = 1;

	if (argc != 5 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1) {
		fprintf(stderr, "usage: rpc serve|call ADDR PORT N\n");
		return 2;
	}
	sa.sin_port = htons(atoi(argv[3]));
	n = atoi(argv[4]);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return 1;
	if (strcmp(argv[1], "serve") == 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 1) < 0 || (c = accept(fd, NULL, NULL)) < 0)
			return 1;
		for (i = 0; i < n; i++)
			if (full(c, &x, sizeof x, 0) < 0 || (x = handle(x), full(c, &x, sizeof x, 1)) < 0)
				return 1;
		return 0;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		return 1;
	for (i = 0; i < n; i++)
		if (call(fd, i) != 2 * i + 1)
			return 1;
	return 0;
}
