// C helpers for POMVVM, inline, behind a module map: what Swift has no
// spelling for.
#ifndef CPOMVVM_H
#define CPOMVVM_H

// Asks the processor to bring the cache line at `address` into its
// caches, for a read soon. A hint only: it never faults, whatever the
// address, and changes no result. Inlined where it is called.
static inline void _cpomvvm_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
