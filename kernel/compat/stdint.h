/* stdint.h for dev/ inside the kernel: its fixed-width types are linux/types.h's */
#include <linux/types.h>
#include <linux/limits.h>
#ifndef UINT64_MAX
#define UINT64_MAX	U64_MAX
#define INT64_MAX	S64_MAX
#define INT64_MIN	S64_MIN
#define UINT32_MAX	U32_MAX
#define INT32_MAX	S32_MAX
#define INT32_MIN	S32_MIN
#endif
