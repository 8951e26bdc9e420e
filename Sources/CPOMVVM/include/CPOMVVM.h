// C helpers for POMVVM: what Swift has no spelling for.
#ifndef CPOMVVM_H
#define CPOMVVM_H

// Asks the processor for the cache line at `address`, which the caller
// reads soon, to be read for a read and kept. A hint only: it never
// faults, whatever the address, and changes no result; inlined where it
// is called.
static inline void _cpomvvm_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
