/* lib.h: string, number and glob helpers of the freestanding device */
typedef struct Buf Buf;
struct Buf {
	char *p, *e;
};

size_t	slen(const char *s);
int	seq(const char *a, const char *b);
void	scopy(char *dst, const char *src, size_t n);
void	bputc(Buf *b, char c);
void	bputs(Buf *b, const char *s);
void	bputhex(Buf *b, uint64_t v);
void	bputdec(Buf *b, uint64_t v);
int	parsehex(const char *s, uint64_t *v);
int	parsedec(const char *s, uint64_t *v);
int	globmatch(const char *pat, const char *s);
