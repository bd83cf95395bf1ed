/*
 * pred.c: compile a D-style predicate into a Prog for predvm.c.
 * Recursive descent, one function per kind of C expression, with the
 * binary operators climbed by precedence from a table.  Code is emitted
 * as the source is read; && || and ?: become forward branches patched
 * when their target is known.  Errors echo the expression with a caret
 * under the column, as Linux's event filters do.
 */
#include "dev/pred/pred.h"
#include "dev/error.h"
#include "dev/lib.h"

typedef struct Comp Comp;
typedef struct Punct Punct;
typedef struct Val Val;

enum {
	Nestmax = 16,	/* parentheses and ?: nested, unary operators in a row: bounds the C stack */
	Uplus = 0xff,	/* unary + emits nothing */
	Srcmax = 1 << 16,	/* far more than any control line */
};

enum { Tend = 1, Tnum, Tname, Tstr, Tpunct };	/* tokens */
enum { Kerr, Knum, Kexec, Kstr };	/* kinds of value: execname and string literals only meet at == and != */

struct Punct {
	char s[3];
	uint8_t prec;	/* binary precedence, 0 if none */
	uint8_t bin;	/* opcode as a binary operator */
	uint8_t un;	/* opcode as a unary operator */
};

/* C's precedence; the lexer takes the longest match */
static const Punct punct[] = {
	{"||", 1, Oorj, 0}, {"&&", 2, Oandj, 0},
	{"|", 3, Oor, 0}, {"^", 4, Oxor, 0}, {"&", 5, Oand, 0},
	{"==", 6, Oeq, 0}, {"!=", 6, Oneq, 0},
	{"<", 7, Olt, 0}, {"<=", 7, Ole, 0}, {">", 7, Ogt, 0}, {">=", 7, Oge, 0},
	{"<<", 8, Oshl, 0}, {">>", 8, Oshr, 0},
	{"+", 9, Oadd, Uplus}, {"-", 9, Osub, Oneg},
	{"*", 10, Omul, 0}, {"/", 10, Odiv, 0}, {"%", 10, Omod, 0},
	{"!", 0, 0, Onot}, {"~", 0, 0, Ocom},
	{"(", 0, 0, 0}, {")", 0, 0, 0}, {"?", 0, 0, 0}, {":", 0, 0, 0},
};

/* variable names, in the order of their numbers in pred.h */
static const char *const vars[Nvar] = {
	"arg0", "arg1", "arg2", "arg3", "retval", "entry", "pc", "pid", "tid",
	"ppid", "uid", "cpu", "timestamp", "depth", "dur",
};

/* stack depth change of each opcode, to refuse too deep an expression */
static const int8_t delta[Nop] = {
	[Oret] = -1, [Olit] = 1, [Olit64] = 1, [Ovar] = 1, [Ostreq] = 1,
	[Ojz] = -1, [Oandj] = -1, [Oorj] = -1,
	[Omul] = -1, [Odiv] = -1, [Omod] = -1, [Oadd] = -1, [Osub] = -1,
	[Oshl] = -1, [Oshr] = -1, [Olt] = -1, [Ole] = -1, [Ogt] = -1, [Oge] = -1,
	[Oeq] = -1, [Oneq] = -1, [Oand] = -1, [Oxor] = -1, [Oor] = -1,
	[Ocmpvi] = 1,
};

/* the typed variables' names in the args text (predargs.c), by variable number */
static const char *const typed[Vretval + 1] = {
	"$arg0", "$arg1", "$arg2", "$arg3", "$retval",
};

struct Val {
	int k;
	int pos;	/* where it starts in the source */
	int off;	/* Kstr: offset in Prog.str */
};

struct Comp {
	const char *src;
	Prog *p;
	int pos;	/* the current token */
	int end;	/* just past it */
	int prev;	/* the token before: where code being emitted came from */
	int t;
	const Punct *op;	/* Tpunct */
	uint64_t num;	/* Tnum */
	int var;	/* Tname: variable number, Nvar for execname, -1 if unknown, -2 an argument no word holds */
	const char *args;	/* argument names, "name=N[sB|uB] ...", or nil */
	int bits;	/* Tname, an argument or variable of B bits < 64: its low B bits only */
	int sign;	/* and those are signed */
	int off;	/* Tstr */
	int depth;	/* stack depth of the code so far */
	int label;	/* the last instruction a branch was patched to land on */
	int at1, at2;	/* where the last two instructions start (an Olit64 is two words) */
	int nest;
	int err;	/* Errnone or the first error (error.h) */
	int col;
};

static int
isdigitc(int c)
{
	return c >= '0' && c <= '9';
}

static int
isalnumc(int c)
{
	return isdigitc(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
digit(int c, int base)
{
	int v;

	if (isdigitc(c))
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < base ? v : -1;
}

/* the first error wins; returns a Val of kind Kerr for the callers to pass up (Errnone: pass one up) */
static Val
fail(Comp *c, int err, int col)
{
	Val v = {Kerr, col, 0};

	if (c->err == Errnone) {
		c->err = err;
		c->col = col;
	}
	return v;
}

/* one character of a character constant or string at s; its length in *n, -1 if bad */
static int
escape(const char *s, int *n)
{
	static const char esc[] = "n\nt\tr\ra\ab\bf\fv\v\\\\''\"\"??";
	int i, v, d;

	*n = 1;
	if (s[0] != '\\')
		return s[0] == 0 || s[0] == '\n' ? -1 : (uint8_t)s[0];
	*n = 2;
	for (i = 0; esc[i] != 0; i += 2)
		if (s[1] == esc[i])
			return esc[i + 1];
	v = 0;
	if (digit(s[1], 8) >= 0) {
		for (i = 1; i <= 3 && (d = digit(s[i], 8)) >= 0; i++)
			v = v * 8 + d;
		*n = i;
		return v < 256 ? v : -1;
	}
	if (s[1] == 'x') {	/* as in C, every hex digit that follows */
		for (i = 2; (d = digit(s[i], 16)) >= 0; i++)
			if ((v = v * 16 + d) > 255)
				return -1;
		*n = i;
		return i > 2 ? v : -1;
	}
	return -1;
}

static void
number(Comp *c, const char *s)
{
	uint64_t v;
	int i, d, base;

	base = 10;
	i = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (s[0] == '0')
		base = 8;
	v = 0;
	for (; (d = digit(s[i], base)) >= 0; i++) {
		if (v > (UINT64_MAX - d) / base) {
			fail(c, Errnumlarge, c->pos);
			return;
		}
		v = v * base + d;
	}
	if (isalnumc(s[i]) || (base == 16 && i == 2)) {
		fail(c, Errnumber, c->pos);
		return;
	}
	c->t = Tnum;
	c->num = v;
	c->end = c->pos + i;
}

static void
charconst(Comp *c, const char *s)
{
	int v, n;

	v = escape(s + 1, &n);
	if (v < 0 || s[1] == '\'' || s[1 + n] != '\'') {
		fail(c, Errcharconst, c->pos);
		return;
	}
	c->t = Tnum;
	c->num = v;
	c->end = c->pos + n + 2;
}

/* a string literal goes straight into Prog.str */
static void
string(Comp *c, const char *s)
{
	Prog *p = c->p;
	int i, v, n;

	c->off = p->nstr;
	for (i = 1; s[i] != '"'; i += n) {
		v = escape(s + i, &n);
		if (v <= 0) {
			fail(c, s[i] == 0 ? Errunterm : v == 0 ? Errstrnul : Errstring, c->pos + i);
			return;
		}
		if (p->nstr >= Strmax - 1) {
			fail(c, Errstrlong, c->pos);
			return;
		}
		p->str[p->nstr++] = v;
	}
	if (p->nstr >= Strmax) {	/* "" after the rest filled it: found by fuzz_pred */
		fail(c, Errstrlong, c->pos);
		return;
	}
	p->str[p->nstr++] = 0;
	c->t = Tstr;
	c->end = c->pos + i + 1;
}

/* "sB" or "uB" at a: its type, for primary to extend the value by */
static void
ext(Comp *c, const char *a)
{
	c->sign = *a == 's';
	if (*a == 's' || *a == 'u')
		for (a++; isdigitc(*a) && c->bits < 64; a++)
			c->bits = c->bits * 10 + *a - '0';
}

/* the value of name s (n bytes) in a, "name=value ...": nil if none */
static const char *
argval(const char *a, const char *s, int n)
{
	int k;

	while (*a) {
		for (k = 0; a[k] && a[k] != '=' && a[k] != ' '; k++)
			;
		if (k == n && __builtin_memcmp(a, s, n) == 0 && a[k] == '=')
			return a + k + 1;
		while (*a && *a != ' ')
			a++;
		while (*a == ' ')
			a++;
	}
	return 0;
}

/*
 * the variable of the argument named s (n bytes) in a, "name=N[sB|uB] ...":
 * arg N, whose value is its low B bits, signed or not (a register's upper
 * bits are undefined for a narrow argument); -2 for "name=?", -1 if none
 */
static int
argvar(Comp *c, const char *a, const char *s, int n)
{
	int v;

	if ((a = argval(a, s, n)) == 0)
		return -1;
	if (*a < '0' || *a > '3')
		return -2;
	v = Varg0 + *a++ - '0';
	ext(c, a);
	return v;
}

static void
name(Comp *c, const char *s)
{
	int i, n;

	for (n = 0; isalnumc(s[n]); n++)
		;
	c->t = Tname;
	c->end = c->pos + n;
	c->var = -1;
	c->bits = 0;
	for (i = 0; i <= Nvar; i++) {
		const char *v = i < Nvar ? vars[i] : "execname";
		if ((int)slen(v) == n && __builtin_memcmp(v, s, n) == 0)
			c->var = i;
	}
	if (c->var < 0 && c->args)
		c->var = argvar(c, c->args, s, n);
	else if (c->var >= Varg0 && c->var <= Vretval && c->args && (s = argval(c->args, typed[c->var], slen(typed[c->var]))))
		ext(c, s);	/* values as their type: arg0..arg3 and retval, where the signatures agree */
}

static void
next(Comp *c)
{
	const char *s;
	int i, n, best;

	c->prev = c->pos;
	c->pos = c->end;
	while ((s = c->src + c->pos), *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		c->pos++;
	c->end = c->pos;
	c->t = 0;
	if (*s == 0)
		c->t = Tend;
	else if (isdigitc(*s))
		number(c, s);
	else if (*s == '\'')
		charconst(c, s);
	else if (*s == '"')
		string(c, s);
	else if (isalnumc(*s))
		name(c, s);
	else {
		best = 0;
		for (i = 0; i < (int)nelem(punct); i++) {
			n = slen(punct[i].s);
			if (n > best && __builtin_memcmp(punct[i].s, s, n) == 0) {
				best = n;
				c->op = &punct[i];
			}
		}
		if (best == 0) {
			fail(c, Errchar, c->pos);
			return;
		}
		c->t = Tpunct;
		c->end = c->pos + best;
	}
}

static int
is(Comp *c, const char *s)
{
	return c->t == Tpunct && c->op->s[0] == s[0] && c->op->s[1] == s[1];
}

/*
 * Ovar v; Olit k; CMP becomes Ocmpvi: a hit tests most predicates'
 * terms in one dispatch, not three.  Not when a branch lands on the
 * literal: then the variable belongs to another path.
 */
static int
fuse(Comp *c, int op)
{
	Prog *p = c->p;
	uint64_t v, k;
	int n = p->ninst;

	if (c->at1 != n - 1 || c->at2 != n - 2 || c->label == n - 1 ||
	    (p->inst[n - 2] & 0xff) != Ovar || (p->inst[n - 1] & 0xff) != Olit)
		return 0;
	v = p->inst[n - 2] >> 8;
	k = p->inst[n - 1] >> 8;	/* 56 bits, sign in bit 55 */
	if ((k >> 48) != 0 && (k >> 48) != 0xff)
		return 0;		/* needs more than 49 bits */
	p->inst[n - 2] = Ocmpvi | (v | (uint64_t)(op - Olt) << 4 | (k & (((uint64_t)1 << 49) - 1)) << 7) << 8;
	p->ninst = n - 1;
	c->at1 = n - 2;
	c->at2 = -1;
	return 1;
}

/* the last instruction leaves 0 or 1, and no branch brings another value here */
static int
isbool(Comp *c)
{
	int op, n = c->p->ninst;

	if (c->at1 != n - 1 || c->label == n)
		return 0;
	op = c->p->inst[n - 1] & 0xff;
	return (op >= Olt && op <= Oneq) || op == Ocmpvi || op == Ostreq || op == Onot || op == Obool;
}

/* -k, ~k, !k of a literal k is a literal: so -1 can fuse as above, and a long one can make a term */
static int
fold(Comp *c, int op)
{
	Prog *p = c->p;
	uint64_t k;
	int n = p->ninst;

	if (c->label == n)
		return 0;	/* a branch lands after the literal: another path's value arrives there */
	if (c->at1 == n - 1 && (p->inst[n - 1] & 0xff) == Olit) {
		k = sext(p->inst[n - 1] >> 8, 56);
	} else if (c->at1 == n - 2 && p->inst[n - 2] == Olit64)
		k = p->inst[n - 1];
	else
		return 0;
	k = op == Oneg ? -k : op == Ocom ? ~k : k == 0;
	if ((k >> 55) == 0 || (k >> 55) == 0x1ff) {	/* fits Olit */
		p->inst[c->at1] = Olit | (k & (((uint64_t)1 << 56) - 1)) << 8;
		p->ninst = c->at1 + 1;
	} else
		p->inst[n - 1] = k;	/* an Olit64 stays one */
	return 1;
}

/* the instruction's index, or -1 */
static int
emit(Comp *c, int op, uint64_t arg)
{
	Prog *p = c->p;

	if (p->ninst >= Progmax) {
		fail(c, Errproglong, c->prev);
		return -1;
	}
	c->depth += delta[op];
	if (c->depth > Stackmax) {
		fail(c, Errdeep, c->prev);
		return -1;
	}
	if (op >= Olt && op <= Oneq && fuse(c, op))
		return p->ninst - 1;
	if ((op == Oneg || op == Ocom || op == Onot) && fold(c, op))
		return p->ninst - 1;
	if (op == Obool && isbool(c))
		return p->ninst - 1;	/* already 0 or 1 */
	p->inst[p->ninst] = op | arg << 8;
	c->at2 = c->at1;
	c->at1 = p->ninst;
	return p->ninst++;
}

/* a branch emitted before its target was known now lands here */
static void
patch(Comp *c, int at)
{
	if (at >= 0) {
		c->p->inst[at] |= (uint64_t)c->p->ninst << 8;
		c->label = c->p->ninst;
	}
}

static void
literal(Comp *c, uint64_t v)
{
	uint64_t top = v >> 55;

	if (top == 0 || top == 0x1ff)	/* fits 56 bits, sign extended */
		emit(c, Olit, v & (((uint64_t)1 << 56) - 1));
	else if (emit(c, Olit64, 0) >= 0 && c->p->ninst < Progmax)
		c->p->inst[c->p->ninst++] = v;
	else
		fail(c, Errproglong, c->prev);
}

/* a value used as a number must be one */
static int
numeric(Comp *c, Val v)
{
	if (v.k == Knum)
		return 1;
	if (v.k != Kerr)
		fail(c, Errstrnum, v.pos);
	return 0;
}

static Val expr(Comp *c);

static Val
primary(Comp *c)
{
	Val v = {Knum, c->pos, 0};

	if (c->err)
		return fail(c, Errnone, 0);
	switch (c->t) {
	case Tnum:
		literal(c, c->num);
		break;
	case Tname:
		if (c->var < 0)
			return fail(c, c->var == -2 ? Errargword : c->args ? Errargname : Errvar, c->pos);
		if (c->var == Nvar)
			v.k = Kexec;
		else
			emit(c, Ovar, c->var);
		if (c->bits > 0 && c->bits < 64)	/* its low bits, sign- or zero-extended */
			emit(c, Oext, c->bits | (c->sign ? Extsigned : 0));
		break;
	case Tstr:
		v.k = Kstr;
		v.off = c->off;
		break;
	default:
		if (!is(c, "("))
			return fail(c, Errexpr, c->pos);
		next(c);
		v = expr(c);
		if (v.k == Kerr)
			return v;
		if (!is(c, ")"))
			return fail(c, Errrparen, c->pos);
		break;
	}
	next(c);
	return c->err ? fail(c, Errnone, 0) : v;
}

/* unary operators, gathered first and emitted after their operand */
static Val
unary(Comp *c)
{
	uint8_t ops[Nestmax];
	int n;
	Val v;

	for (n = 0; c->t == Tpunct && c->op->un != 0; n++) {
		if (n == Nestmax)
			return fail(c, Errdeep, c->pos);
		ops[n] = c->op->un;
		next(c);
	}
	v = primary(c);
	if (n > 0 && !numeric(c, v))
		return fail(c, Errnone, 0);
	while (n-- > 0)
		if (ops[n] != Uplus)
			emit(c, ops[n], 0);
	return v;
}

/* execname == "lit", either way round */
static Val
strcmpop(Comp *c, Val l, Val r, int op, int opos)
{
	if (l.k == Knum || r.k == Knum)
		return fail(c, Errstrcmp, opos);
	if (l.k == r.k)
		return fail(c, Errexeccmp, opos);
	emit(c, Ostreq, l.k == Kstr ? l.off : r.off);
	if (op == Oneq)
		emit(c, Onot, 0);
	l.k = Knum;
	return l;
}

static Val
binary(Comp *c, int minprec)
{
	const Punct *op;
	Val l, r;
	int opos, j;

	l = unary(c);
	while (l.k != Kerr && c->t == Tpunct && c->op->prec >= minprec) {
		op = c->op;
		opos = c->pos;
		if (op->bin != Oeq && op->bin != Oneq && !numeric(c, l))
			break;
		next(c);
		j = -1;
		if (op->bin == Oandj || op->bin == Oorj)
			j = emit(c, op->bin, 0);
		r = binary(c, op->prec + 1);
		if (r.k == Kerr)
			break;
		if (op->bin != Oeq && op->bin != Oneq && !numeric(c, r))
			break;
		if (l.k != Knum || r.k != Knum) {
			l = strcmpop(c, l, r, op->bin, opos);
			continue;
		}
		if (j >= 0) {
			emit(c, Obool, 0);
			patch(c, j);
		} else
			emit(c, op->bin, 0);
	}
	return c->err ? fail(c, Errnone, 0) : l;
}

/* cond ? a : b, right to left, as C groups it */
static Val
expr(Comp *c)
{
	Val v, a;
	int j1, j2;

	if (++c->nest > Nestmax)
		return fail(c, Errdeep, c->pos);
	v = binary(c, 1);
	if (v.k != Kerr && is(c, "?")) {
		if (!numeric(c, v))
			return fail(c, Errnone, 0);
		next(c);
		j1 = emit(c, Ojz, 0);
		a = expr(c);
		if (!numeric(c, a))
			return fail(c, Errnone, 0);
		if (!is(c, ":"))
			return fail(c, Errcolon, c->pos);
		next(c);
		j2 = emit(c, Ojmp, 0);
		patch(c, j1);
		c->depth--;	/* the other arm starts without a's value */
		if (!numeric(c, expr(c)))
			return fail(c, Errnone, 0);
		patch(c, j2);
	}
	c->nest--;
	return c->err ? fail(c, Errnone, 0) : v;
}

/*
 * msg, then the source and a caret under col, each indented two
 * spaces; a source too long for err is shown as a window around col.
 */
static void
errmsg(char *err, size_t nerr, const char *msg, const char *src, int col)
{
	Buf b;
	int i, n, w, start, end;

	if (err == 0 || nerr == 0)
		return;
	b.p = err;
	b.e = err + nerr - 1;
	n = slen(msg);
	bputs(&b, msg);
	w = ((int)(nerr < 4096 ? nerr : 4096) - 1 - n - 7) / 2;	/* room for each line */
	n = slen(src);
	start = 0;
	end = n;
	if (n > w) {
		w -= 6;	/* the "..." each side */
		if (w < 8) {
			bputnul(&b);
			return;
		}
		start = col > w / 2 ? col - w / 2 : 0;
		end = start + w;
		if (end > n) {
			end = n;
			start = n - w;
		}
	}
	bputs(&b, "\n  ");
	if (start > 0)
		bputs(&b, "...");
	for (i = start; i < end; i++)
		bputc(&b, (uint8_t)src[i] < ' ' && src[i] != '\t' ? ' ' : src[i]);
	if (end < n)
		bputs(&b, "...");
	bputs(&b, "\n  ");
	if (start > 0)
		bputs(&b, "   ");
	for (i = start; i < col; i++)
		bputc(&b, src[i] == '\t' ? '\t' : ' ');
	bputc(&b, '^');
	bputnul(&b);
}

static int
compile(const char *src, const char *args, Prog *p, char *err, size_t nerr, int terms)
{
	Comp c;
	Val v;
	int n;

	__builtin_memset(p, 0, sizeof *p);
	__builtin_memset(&c, 0, sizeof c);
	c.src = src;
	c.args = args;
	c.p = p;
	c.label = c.at1 = c.at2 = -1;
	for (n = 0; n < Srcmax && src[n] != 0; n++)
		;
	if (n == Srcmax) {	/* columns are ints */
		errmsg(err, nerr, errtext(Errexprlong), "", 0);
		return Errexprlong;
	}
	next(&c);
	v = expr(&c);
	if (v.k != Kerr && c.t != Tend)
		fail(&c, c.t == Tpunct && is(&c, ")") ? Errunbal : Erroperator, c.pos);
	if (c.err == Errnone && numeric(&c, v))
		emit(&c, Oret, 0);
	if (c.err == Errnone && !predvalid(p))
		fail(&c, Errbadprog, 0);
	if (c.err == Errnone && terms && predterms(p) < 0)
		fail(&c, Errbadterms, 0);
	if (c.err == Errnone) {
		if (err != 0 && nerr > 0)
			err[0] = 0;
		return 0;
	}
	errmsg(err, nerr, errtext(c.err), src, c.col);
	__builtin_memset(p, 0, sizeof *p);
	return c.err;
}

int
predcompile(const char *src, Prog *p, char *err, size_t nerr)
{
	return compile(src, 0, p, err, nerr, 1);
}

int
predcompileargs(const char *src, const char *args, Prog *p, char *err, size_t nerr)
{
	return compile(src, args, p, err, nerr, 1);
}

int
predcompilestack(const char *src, Prog *p, char *err, size_t nerr)
{
	return compile(src, 0, p, err, nerr, 0);
}

int
predcompileargsstack(const char *src, const char *args, Prog *p, char *err, size_t nerr)
{
	return compile(src, args, p, err, nerr, 0);
}
