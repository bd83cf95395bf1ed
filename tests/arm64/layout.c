/*
 * layout.c: the device's shared structures, for their layout in DWARF
 * (layout.bats compares an amd64 and an arm64 build of this file).  A
 * traced arm64 process and an amd64 server share one block: every
 * offset must be the same.
 */
#include "dev/dat.h"

Dev *layoutdev;
Slot layoutslot;
Shard layoutshard;
Trace layouttrace;
