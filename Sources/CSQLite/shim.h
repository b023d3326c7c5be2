#ifndef REMCONV_CSQLITE_SHIM_H
#define REMCONV_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import: it tells SQLite to copy a
// bound value before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}
#endif
