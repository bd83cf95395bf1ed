/*
 * map.c: a block's sizes: where its parts lie (devsize, devsessoff),
 * and the sizes of each block this process holds, as its host made or
 * mapped it (devmapped): the ring size (log2 slots), the writers' rings
 * and the sessions after the top level.  Every process may write
 * the block, its own copies of these included, so the device keeps the
 * trusted ones here, where no other process writes, and never uses a
 * size from the block for an index without checking it against these.
 * A session's Dev is found by where it lies (devsessoff).
 *
 * Read lock-free by the control side and at a writer's first hit on a
 * device (hit.c: decide; a Writer keeps what it read): an entry's sizes
 * are stored before its d, and a d of 1 marks one being filled.
 */
#include "dev/dat.h"
#include "dev/fns.h"

enum { Nmap = 64 };

static struct {
	Dev *d;
	uint32_t logmax;
	uint32_t nring;
	uint32_t nsess;
} maps[Nmap];
static uint32_t mapnext;

#define Filling	((Dev *)1)

/* the shared ring, then nring writers' rings: their headers, then their slots (dat.h: wrings) */
size_t
devsize(int logmax, int nring)
{
	return sizeof(Dev) + ((size_t)1 << logmax) * sizeof(Slot) * (1 + (size_t)nring) + (size_t)nring * sizeof(Wring);
}

int
devsesslog(int logmax)
{
	return logmax < Logsess ? logmax : Logsess;
}

/* the top level, then the sessions, each a Dev with its rings */
size_t
devsessoff(int logmax, int nring, uint32_t n)
{
	return devsize(logmax, nring) + (size_t)(n - 1) * devsize(devsesslog(logmax), nring);
}

size_t
devblocksize(int logmax, int nring, int nsess)
{
	return devsessoff(logmax, nring, nsess + 1);
}

void
devmapped(Dev *d, uint32_t logmax, uint32_t nring, uint32_t nsess)
{
	Dev *none;
	int i;

	/* d again (an address reused after an unmap the host did not tell): its entry, filled anew */
	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			goto fill;
	for (i = 0; i < Nmap; i++) {
		none = 0;
		if (__atomic_load_n(&maps[i].d, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(&maps[i].d, &none, Filling, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			goto fill;
	}
	/*
	 * Full: the runtime keeps the mapping of every device it left (hooks
	 * may hold it), so a long life of server restarts gets here.  The
	 * oldest goes: its device is long gone, and a thread that wrote to
	 * it keeps its bound in its Writer.
	 */
	i = __atomic_fetch_add(&mapnext, 1, __ATOMIC_RELAXED) % Nmap;
fill:
	__atomic_store_n(&maps[i].d, Filling, __ATOMIC_RELEASE);
	maps[i].logmax = logmax;
	maps[i].nring = nring <= Nringmax ? nring : 0;
	maps[i].nsess = nsess <= Nsess ? nsess : 0;
	__atomic_store_n(&maps[i].d, d, __ATOMIC_RELEASE);
}

void
devunmapped(Dev *d)
{
	int i;

	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			__atomic_store_n(&maps[i].d, 0, __ATOMIC_RELEASE);
}

/*
 * d's entry: a block this process holds (*sess 0), or one of its
 * sessions' Devs (*sess 1..nsess); -1 for anything else, where every
 * size in it is damage.
 */
static int
mapof(const Dev *d, uint32_t *sess)
{
	uint32_t n;
	size_t off;
	Dev *top;
	int i;

	for (i = 0; i < Nmap; i++) {
		top = __atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE);
		if (top == 0 || top == Filling || (const char *)d < (const char *)top)
			continue;
		off = (const char *)d - (const char *)top;
		for (n = 0; n <= maps[i].nsess; n++)
			if (off == (n == 0 ? 0 : devsessoff(maps[i].logmax, maps[i].nring, n))) {
				*sess = n;
				return i;
			}
	}
	return -1;
}

uint32_t
maplogmax(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 ? 0 : s == 0 ? maps[i].logmax : (uint32_t)devsesslog(maps[i].logmax);
}

uint32_t
mapnring(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 ? 0 : maps[i].nring;
}

/* the sessions the block has room for; 0 in a session's Dev */
uint32_t
mapnsess(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 || s != 0 ? 0 : maps[i].nsess;
}
