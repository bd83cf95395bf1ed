/* linux.h: what the user-space host adds to dev/host.h */
void	hostrefresh(void);	/* re-read the process's name, ppid and uid for predicates; its ancestors when its pid is new */
