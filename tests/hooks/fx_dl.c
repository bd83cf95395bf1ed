/*
 * fx_dl: functions of an object loaded with dlopen, by a bare name
 * found through the program's RUNPATH ($ORIGIN).  Loaded, called,
 * closed, loaded and called again.
 */
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) long
mainfn(long x)
{
	return x + 5;
}

int
main(void)
{
	long (*fn)(long);
	void *h;
	int k;

	for (k = 0; k < 2; k++) {
		if ((h = dlopen("libfx.so", RTLD_NOW)) == NULL) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		fn = (long (*)(long))dlsym(h, "libfn");
		printf("libfn %ld mainfn %ld\n", fn(20 + k), mainfn(k));
		dlclose(h);
	}
	return 0;
}
