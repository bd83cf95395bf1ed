/*
 * jmpbuf.c: the stack pointer in glibc's amd64 jmp_buf (see arch/arch.h).
 * glibc keeps it at JB_RSP, mangled with the thread's pointer guard
 * (%fs:0x30): xored, then rotated left 0x11.
 */
#include "arch/arch.h"

enum { Jbrsp = 6 };	/* glibc's JB_RSP */

uintptr_t
archjmpsp(const void *jb)
{
	uintptr_t v = ((const uintptr_t *)jb)[Jbrsp], guard;

	__asm__("movq %%fs:0x30, %0" : "=r"(guard));
	v = v >> 0x11 | v << (64 - 0x11);
	return v ^ guard;
}
