#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>
#include <stdlib.h>

/// Bytes of heap in use (malloc chunks, their overhead included), or 0 where
/// the C library cannot tell.
size_t cheapstats_heap_in_use(void);

#endif
