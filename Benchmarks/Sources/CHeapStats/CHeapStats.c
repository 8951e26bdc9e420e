#include "CHeapStats.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t cheapstats_heap_in_use(void) {
#if defined(__GLIBC__)
  // Chunks in the arenas, plus the large blocks malloc maps on their own
  // (an array of 100,000 rows is one of those).
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#else
  return 0;
#endif
}
