/*
 * The SQLite floor for remconv's benchmarks: inserts the rows of a TSV file (one reminder per
 * line, columns as remconv stores them) into a fresh database in one transaction with one
 * prepared statement, then reads every row back. Prints the elapsed and user CPU seconds of
 * each phase (bench/run.sh records them as the insert floor and the read floor).
 *
 *   cc -O2 -o sqlite_insert sqlite_insert.c -lsqlite3
 *   ./sqlite_insert rows.tsv /tmp/floor.sqlite [insert-only]
 *
 * `insert-only` leaves the read-back out, for counting the insert phase's instructions
 * (bench/run.sh runs it under callgrind).
 *
 * The schema mirrors remconv's reminders table (same columns and indexes, WAL, synchronous
 * FULL), so the figure is what any importer of the same rows must at least pay.
 */
#include "sqlite_floor.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define COLUMNS 17

int main(int argc, char **argv) {
  int insert_only = argc == 4 && strcmp(argv[3], "insert-only") == 0;
  if (argc != 3 && !insert_only) {
    fprintf(stderr, "usage: %s ROWS.tsv DATABASE [insert-only]\n", argv[0]);
    return 64;
  }
  FILE *input = fopen(argv[1], "r");
  if (!input) { perror(argv[1]); return 66; }
  remove(argv[2]);
  sqlite3 *db;
  check(sqlite3_open(argv[2], &db), db, "open");
  check(sqlite3_exec(db,
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
    "CREATE TABLE lists (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE);"
    "CREATE TABLE reminders (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, list_id INTEGER NOT NULL REFERENCES lists(id),"
    " parent_id INTEGER REFERENCES reminders(id), title TEXT NOT NULL, notes TEXT NOT NULL, is_done INTEGER NOT NULL,"
    " completed_at TEXT, flagged INTEGER NOT NULL, due TEXT, due_kind TEXT, due_tz TEXT, priority INTEGER NOT NULL,"
    " tags TEXT NOT NULL, url TEXT, created_at TEXT, edited_at TEXT, extra TEXT NOT NULL);"
    "CREATE INDEX reminders_by_list ON reminders(list_id); CREATE INDEX reminders_by_uid ON reminders(uid);"
    "CREATE INDEX reminders_by_parent ON reminders(parent_id);", 0, 0, 0), db, "schema");

  double start = now(), start_user = user_seconds();
  check(sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0), db, "begin");
  sqlite3_stmt *list_insert, *list_find, *insert;
  check(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO lists (uid, name, name_key) VALUES (?1, ?2, lower(?2))", -1, &list_insert, 0), db, "prepare");
  check(sqlite3_prepare_v2(db, "SELECT id FROM lists WHERE name_key = lower(?1)", -1, &list_find, 0), db, "prepare");
  check(sqlite3_prepare_v2(db,
    "INSERT INTO reminders (uid, list_id, title, notes, is_done, completed_at, flagged, due, due_kind, due_tz,"
    " priority, tags, url, created_at, edited_at, extra) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    -1, &insert, 0), db, "prepare");

  size_t capacity = 1 << 20;
  char *line = malloc(capacity);
  long rows = 0;
  while (fgets(line, (int)capacity, input)) {
    char *fields[COLUMNS] = {0};
    int count = 0;
    char *cursor = line;
    line[strcspn(line, "\n")] = 0;
    while (count < COLUMNS) {
      fields[count++] = cursor;
      char *tab = strchr(cursor, '\t');
      if (!tab) break;
      *tab = 0;
      cursor = tab + 1;
    }
    if (count < COLUMNS) continue;
    /* columns: uid list listuid title notes is_done completed_at flagged due due_kind due_tz priority tags url created edited extra */
    sqlite3_bind_text(list_insert, 1, fields[2], -1, SQLITE_STATIC);
    sqlite3_bind_text(list_insert, 2, fields[1], -1, SQLITE_STATIC);
    check(sqlite3_step(list_insert), db, "list insert");
    sqlite3_reset(list_insert);
    sqlite3_bind_text(list_find, 1, fields[1], -1, SQLITE_STATIC);
    check(sqlite3_step(list_find), db, "list find");
    sqlite3_int64 list_id = sqlite3_column_int64(list_find, 0);
    sqlite3_reset(list_find);
    sqlite3_bind_text(insert, 1, fields[0], -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert, 2, list_id);
    for (int column = 3; column < COLUMNS; column++) {
      const char *value = fields[column];
      if (strcmp(value, "\\N") == 0) sqlite3_bind_null(insert, column);
      else sqlite3_bind_text(insert, column, value, -1, SQLITE_STATIC);
    }
    check(sqlite3_step(insert), db, "insert");
    sqlite3_reset(insert);
    rows++;
  }
  check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
  double inserted = now(), inserted_user = user_seconds();
  if (insert_only) {
    printf("rows %ld insert %.3f s user %.3f s\n", rows, inserted - start, inserted_user - start_user);
    sqlite3_finalize(insert);
    sqlite3_finalize(list_insert);
    sqlite3_finalize(list_find);
    sqlite3_close(db);
    free(line);
    return 0;
  }

  sqlite3_stmt *select;
  check(sqlite3_prepare_v2(db, "SELECT * FROM reminders ORDER BY id", -1, &select, 0), db, "prepare");
  long read = 0;
  size_t bytes = 0;
  while (sqlite3_step(select) == SQLITE_ROW) {
    for (int column = 0; column < sqlite3_column_count(select); column++) bytes += (size_t)sqlite3_column_bytes(select, column);
    read++;
  }
  double finished = now(), finished_user = user_seconds();
  printf("rows %ld insert %.3f s user %.3f s read %.3f s user %.3f s (%zu bytes)\n", rows, inserted - start,
         inserted_user - start_user, finished - inserted, finished_user - inserted_user, bytes);
  sqlite3_finalize(select);
  sqlite3_finalize(insert);
  sqlite3_finalize(list_insert);
  sqlite3_finalize(list_find);
  sqlite3_close(db);
  free(line);
  return read == rows ? 0 : 1;
}
