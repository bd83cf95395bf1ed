/*
 * sigs.c: the kernel's signature file, /dev/tracesigs: one line per
 * function of the kernel's BTF (/sys/kernel/btf/vmlinux), in the format
 * user space's `devtrace sigs` writes from DWARF (cmd/dwarf.c), so that
 * the scripts' -a SIGS types kernel records as they type a program's:
 *	NAME RET [ARG ...]	ARG: name:class:word
 * word: the record's argument word (1-4, x86-64's first four integer
 * argument registers, as hit.c records them) that holds the argument,
 * 0 when none does.  Made at each open from the kernel's BTF, and freed
 * at the close: 5 MB read, about 4 MB written, not kept.  The kernel's
 * structs hold no floating point, so a struct of up to 16 bytes by value
 * is shown from its one or two words.
 */
#include "k.h"
#include <linux/btf.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

enum {
	Nregs = 6,	/* x86-64's integer argument registers */
	Nwords = 4,	/* argument words a record keeps */
	Clsmax = 512,	/* a class's text; an enum with more names is shown as its number */
};

typedef struct Btf Btf;
typedef struct Out Out;

struct Btf {
	u8 *raw;
	size_t len;
	const struct btf_type **type;	/* by id, 1..ntype-1 */
	u32 ntype;
	const char *str;
	u32 nstr;
};

struct Out {
	char *buf;
	size_t len, cap;
	int err;
};

static void
put(Out *o, const char *s)
{
	size_t n = strlen(s);
	char *b;

	if (o->err)
		return;
	if (o->len + n + 1 > o->cap) {
		if ((b = vmalloc(2 * o->cap + n + 1)) == NULL) {
			o->err = -ENOMEM;
			return;
		}
		memcpy(b, o->buf, o->len);
		vfree(o->buf);
		o->buf = b;
		o->cap = 2 * o->cap + n + 1;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static const char *
str(Btf *b, u32 off)
{
	return off < b->nstr ? b->str + off : "";
}

/* the bytes of what follows a type of this kind: its members, params, values */
static size_t
extra(const struct btf_type *t)
{
	u32 v = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: return 4;
	case BTF_KIND_ARRAY: return sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: return v * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return v * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64: return v * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO: return v * sizeof(struct btf_param);
	case BTF_KIND_DATASEC: return v * sizeof(struct btf_var_secinfo);
	}
	return 0;
}

/* the file, whole, and its types indexed by id */
static int
btfload(Btf *b)
{
	const struct btf_header *h;
	struct file *f;
	loff_t pos = 0;
	ssize_t r;
	size_t off, end;
	u32 n;

	f = filp_open("/sys/kernel/btf/vmlinux", O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	b->len = i_size_read(file_inode(f));
	if (b->len < sizeof *h || (b->raw = vmalloc(b->len)) == NULL) {
		filp_close(f, NULL);
		return -ENOMEM;
	}
	while (pos < b->len && (r = kernel_read(f, b->raw + pos, b->len - pos, &pos)) > 0)
		;
	filp_close(f, NULL);
	h = (const void *)b->raw;
	if (pos != b->len || h->magic != BTF_MAGIC || (u64)h->hdr_len + h->type_off + h->type_len > b->len ||
	    (u64)h->hdr_len + h->str_off + h->str_len > b->len)
		return -EINVAL;
	b->str = (const char *)b->raw + h->hdr_len + h->str_off;
	b->nstr = h->str_len;
	off = h->hdr_len + h->type_off;
	end = off + h->type_len;
	for (n = 1; off + sizeof(struct btf_type) <= end; n++)
		off += sizeof(struct btf_type) + extra((const void *)(b->raw + off));
	if ((b->type = kvcalloc(n, sizeof *b->type, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	off = h->hdr_len + h->type_off;
	for (n = 1; off + sizeof(struct btf_type) <= end; n++) {
		b->type[n] = (const void *)(b->raw + off);
		off += sizeof(struct btf_type) + extra(b->type[n]);
	}
	b->ntype = n;
	return 0;
}

/* the type under typedefs and qualifiers; NULL for void */
static const struct btf_type *
peel(Btf *b, u32 id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; depth < 32 && id > 0 && id < b->ntype; depth++) {
		t = b->type[id];
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		}
		return t;
	}
	return NULL;
}

/* enumN{v=NAME,...}, or uN when that is longer than a class may be */
static void
enumclass(Btf *b, const struct btf_type *t, char *cls)
{
	int i, n = BTF_INFO_VLEN(t->info), len;
	const struct btf_enum *e = (const void *)(t + 1);
	const struct btf_enum64 *e64 = (const void *)(t + 1);
	long long v;

	len = snprintf(cls, Clsmax, "enum%u{", t->size * 8);
	for (i = 0; i < n && len < Clsmax; i++) {
		v = BTF_INFO_KIND(t->info) == BTF_KIND_ENUM ? (long long)e[i].val :
			(long long)((u64)e64[i].val_hi32 << 32 | e64[i].val_lo32);
		len += snprintf(cls + len, Clsmax - len, "%s%lld=%s", i ? "," : "", v, str(b, BTF_INFO_KIND(t->info) == BTF_KIND_ENUM ? e[i].name_off : e64[i].name_off));
	}
	if (len + 2 > Clsmax)
		snprintf(cls, Clsmax, "u%u", t->size * 8);
	else
		strcat(cls, "}");
}

/* type id's class into cls; the integer registers it takes (0: none, void or floating point) and whether they show it */
static void
typeclass(Btf *b, u32 id, char *cls, int *regs, int *shown)
{
	const struct btf_type *t = peel(b, id);
	u32 enc;

	*regs = 1;
	*shown = 1;
	if (t == NULL) {
		strscpy(cls, "void", Clsmax);
		*regs = 0;
		return;
	}
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR:
		strscpy(cls, "ptr", Clsmax);
		return;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		enumclass(b, t, cls);
		return;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		snprintf(cls, Clsmax, "struct%u", t->size);
		*regs = t->size > 16 ? 0 : (t->size + 7) / 8;	/* over 16 bytes: in memory */
		*shown = t->size <= 16;
		return;
	case BTF_KIND_FLOAT:
		snprintf(cls, Clsmax, "f%u", t->size * 8);
		*regs = 0;
		*shown = 0;
		return;
	case BTF_KIND_INT:
		enc = *(const u32 *)(t + 1);
		if (t->size > 8) {
			strscpy(cls, "other", Clsmax);
			*regs = 2;
			*shown = 0;
		} else if (BTF_INT_ENCODING(enc) & BTF_INT_BOOL)
			strscpy(cls, "bool", Clsmax);
		else if ((BTF_INT_ENCODING(enc) & BTF_INT_CHAR) && strcmp(str(b, t->name_off), "char") == 0)
			strscpy(cls, "char", Clsmax);
		else
			snprintf(cls, Clsmax, "%c%u", BTF_INT_ENCODING(enc) & BTF_INT_SIGNED ? 's' : 'u', t->size * 8);
		return;
	}
	strscpy(cls, "other", Clsmax);
}

/* one function's line: the words as cmd/dwarf.c gives them for x86-64 */
static void
funcline(Btf *b, const struct btf_type *f, Out *o, char *cls)
{
	const struct btf_type *p = f->type < b->ntype ? b->type[f->type] : NULL;
	const struct btf_param *a;
	char word[24];
	int i, n, reg, regs, shown;

	if (p == NULL || BTF_INFO_KIND(p->info) != BTF_KIND_FUNC_PROTO)
		return;
	put(o, str(b, f->name_off));
	typeclass(b, p->type, cls, &regs, &shown);
	put(o, " ");
	put(o, cls);
	reg = strncmp(cls, "struct", 6) == 0 && regs == 0;	/* a struct returned in memory: its address comes first */
	a = (const void *)(p + 1);
	n = BTF_INFO_VLEN(p->info);
	for (i = 0; i < n; i++) {
		if (i == n - 1 && a[i].type == 0)
			break;	/* "...": no name, no type */
		typeclass(b, a[i].type, cls, &regs, &shown);
		snprintf(word, sizeof word, ":%d", shown && regs > 0 && reg + regs <= Nwords ? reg + 1 : 0);
		if (regs > 0 && reg + regs <= Nregs)
			reg += regs;
		put(o, " ");
		if (*str(b, a[i].name_off))
			put(o, str(b, a[i].name_off));
		else {
			char an[16];

			snprintf(an, sizeof an, "arg%d", i + 1);
			put(o, an);
		}
		put(o, ":");
		put(o, cls);
		put(o, word);
	}
	put(o, "\n");
}

/* the whole file, in a buffer the caller vfrees; *n its length */
char *
sigstext(size_t *n, int *err)
{
	Btf b = { 0 };
	Out o = { 0 };
	char *cls = kmalloc(Clsmax, GFP_KERNEL);
	u32 id;

	*err = cls ? btfload(&b) : -ENOMEM;
	if (*err == 0 && (o.buf = vmalloc(o.cap = 4 << 20)) == NULL)
		*err = -ENOMEM;
	for (id = 1; *err == 0 && id < b.ntype && !o.err; id++)
		if (BTF_INFO_KIND(b.type[id]->info) == BTF_KIND_FUNC)
			funcline(&b, b.type[id], &o, cls);
	if (*err == 0)
		*err = o.err;
	kfree(cls);
	kvfree(b.type);
	vfree(b.raw);
	if (*err) {
		vfree(o.buf);
		return NULL;
	}
	*n = o.len;
	return o.buf;
}
