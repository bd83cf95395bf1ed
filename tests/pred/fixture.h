/*
 * fixture.h: the fixed values the predicate tests run on, shared by the
 * test binaries, their host functions and the generated truth program.
 */
#define Fpc	0x401000ull
#define Fticks	123456789ull
#define Farg0	3ull
#define Farg1	0xffffffffffffffffull	/* -1 */
#define Farg2	4096ull
#define Farg3	0x8000000000000000ull	/* INT64_MIN */
#define Ftid	42u
#define Fpid	4242u
#define Fdepth	3u
#define Fppid	1u
#define Fuid	1000u
#define Fcpu	2u
#define Fexecname	"sshd"
