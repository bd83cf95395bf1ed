/* fx_lib: libfx.so, loaded by fx_dl with dlopen. */
__attribute__((noinline)) long
libinner(long x)
{
	return x + 1;
}

long
libfn(long x)
{
	return libinner(x) * 2;
}
