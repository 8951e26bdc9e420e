// The system's SQLite, for the store rows' baselines, which call its C API
// directly: the SQLite that ships with Apple's platforms, and libsqlite3 on
// Linux (`apt-get install libsqlite3-dev`). The kit's own module for it is
// not a product, so the benchmarks name theirs.
#include <sqlite3.h>
