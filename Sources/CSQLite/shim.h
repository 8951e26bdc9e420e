// The system's SQLite, for POMVVM's database store: the SQLite that ships
// with Apple's platforms, and libsqlite3 on Linux (`apt-get install
// libsqlite3-dev`).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift does not import: bound text and blobs
// are copied by SQLite.
static inline sqlite3_destructor_type _csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call. Whether closing
// the last connection checkpoints the write-ahead log into the database
// file: a store that refuses a file turns it off, so that the file stays
// byte for byte as it was.
static inline int _csqlite_set_checkpoint_on_close(sqlite3 *db, int enabled) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, (int *)0);
}
