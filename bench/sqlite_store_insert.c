/*
 * The SQLite floor of a first import into remconv's store as it is (issue 26): the rows of a
 * store remconv wrote (its lists and reminders, every column, the derived ones and the source
 * digests too) inserted into a fresh store of the same schema (every index and trigger the
 * migrations made) with one prepared statement a table, in one transaction, on the pragmas
 * remconv's import uses (WAL, synchronous FULL, foreign keys, a 16 MiB page cache).
 *
 *   cc -O2 -o sqlite_store_insert sqlite_store_insert.c -lsqlite3
 *   ./sqlite_store_insert WRITTEN.sqlite EMPTY.sqlite
 *
 * WRITTEN is what `remconv import FILE` made; EMPTY is a store remconv created with nothing
 * in it (an import of a CSV header), replaced by this run. The rows are read into memory
 * first; only `insert_rows` is timed (user CPU and wall, printed), and only it is counted
 * under callgrind (--collect-atstart=no --toggle-collect=insert_rows). What it leaves out of
 * an import is remconv's own work: reading and decoding the file, the merge, the values.
 */
#include "sqlite_floor.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct table {
  const char *name;
  int columns;
  int rows;
  char *insert;
  sqlite3_value **values; /* rows × columns */
};

/* Reads every row of `table` but its rowid (a new store numbers them again, in the same order). */
static void load(sqlite3 *source, struct table *table) {
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY id", table->name);
  sqlite3_stmt *select;
  check(sqlite3_prepare_v2(source, sql, -1, &select, 0), source, "select");
  table->columns = sqlite3_column_count(select) - 1;
  size_t length = 64 + strlen(table->name);
  for (int column = 1; column <= table->columns; column++) length += strlen(sqlite3_column_name(select, column)) + 4;
  table->insert = malloc(length);
  char *end = table->insert + sprintf(table->insert, "INSERT INTO %s (", table->name);
  for (int column = 1; column <= table->columns; column++)
    end += sprintf(end, "%s%s", column > 1 ? ", " : "", sqlite3_column_name(select, column));
  end += sprintf(end, ") VALUES (");
  for (int column = 1; column <= table->columns; column++) end += sprintf(end, "%s?", column > 1 ? ", " : "");
  sprintf(end, ")");
  size_t capacity = 1024;
  table->values = malloc(capacity * table->columns * sizeof *table->values);
  table->rows = 0;
  while (sqlite3_step(select) == SQLITE_ROW) {
    if ((size_t)table->rows == capacity) {
      capacity *= 2;
      table->values = realloc(table->values, capacity * table->columns * sizeof *table->values);
    }
    for (int column = 0; column < table->columns; column++)
      table->values[(size_t)table->rows * table->columns + column] = sqlite3_value_dup(sqlite3_column_value(select, column + 1));
    table->rows++;
  }
  sqlite3_finalize(select);
}

/* The measured part: every row bound and stepped, one transaction. */
__attribute__((noinline)) void insert_rows(sqlite3 *db, struct table *tables, int count) {
  check(sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0), db, "begin");
  for (int index = 0; index < count; index++) {
    struct table *table = &tables[index];
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db, table->insert, -1, &insert, 0), db, "prepare");
    for (int row = 0; row < table->rows; row++) {
      for (int column = 0; column < table->columns; column++)
        sqlite3_bind_value(insert, column + 1, table->values[(size_t)row * table->columns + column]);
      check(sqlite3_step(insert), db, "insert");
      sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
  }
  check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WRITTEN.sqlite EMPTY.sqlite\n", argv[0]);
    return 64;
  }
  sqlite3 *source, *db;
  check(sqlite3_open_v2(argv[1], &source, SQLITE_OPEN_READONLY, 0), source, "open");
  struct table tables[] = {{.name = "lists"}, {.name = "reminders"}};
  int count = sizeof tables / sizeof *tables;
  for (int index = 0; index < count; index++) load(source, &tables[index]);
  check(sqlite3_open(argv[2], &db), db, "open");
  check(sqlite3_exec(db,
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-16384;",
    0, 0, 0), db, "pragmas");
  double wall = now(), user = user_seconds();
  insert_rows(db, tables, count);
  printf("rows %d insert %.3f s user %.3f s\n", tables[count - 1].rows, now() - wall, user_seconds() - user);
  sqlite3_close(db);
  sqlite3_close(source);
  return 0;
}
