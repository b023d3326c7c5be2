#ifndef REMCONV_CLIBARCHIVE_SHIM_H
#define REMCONV_CLIBARCHIVE_SHIM_H
// The part of libarchive (Debian's libarchive-dev, ABI 13) that reads and writes the zip of a
// Todoist backup (Formats/TodoistBackup/LibArchive), declared here as <archive.h> declares it.
// <archive.h> itself cannot be the module's header: it includes <sys/stat.h>, which this
// module would then own, and Swift's member import visibility would make `stat` unusable in
// every file that does not import this module. The declarations use the same widths as the
// header on Linux: la_int64_t is int64_t, la_ssize_t is ssize_t (long), mode_t is unsigned int,
// time_t is long.
#include <stddef.h>
#include <stdint.h>

struct archive;
struct archive_entry;

#define ARCHIVE_EOF 1
#define ARCHIVE_OK 0
#define ARCHIVE_WARN (-20)

typedef long archive_write_callback(struct archive *, void *client_data, const void *buffer, size_t length);
typedef int archive_open_callback(struct archive *, void *client_data);
typedef int archive_close_callback(struct archive *, void *client_data);

struct archive *archive_read_new(void);
int archive_read_support_format_zip(struct archive *);
int archive_read_open_filename(struct archive *, const char *filename, size_t block_size);
int archive_read_next_header(struct archive *, struct archive_entry **);
long archive_read_data(struct archive *, void *, size_t);
int archive_read_free(struct archive *);
const char *archive_error_string(struct archive *);

struct archive *archive_write_new(void);
int archive_write_set_format_zip(struct archive *);
int archive_write_set_bytes_in_last_block(struct archive *, int bytes_in_last_block);
int archive_write_open(struct archive *, void *client_data, archive_open_callback *, archive_write_callback *,
                       archive_close_callback *);
int archive_write_header(struct archive *, struct archive_entry *);
long archive_write_data(struct archive *, const void *, size_t);
int archive_write_close(struct archive *);
int archive_write_free(struct archive *);

struct archive_entry *archive_entry_new(void);
void archive_entry_free(struct archive_entry *);
const char *archive_entry_pathname(struct archive_entry *);
const char *archive_entry_pathname_utf8(struct archive_entry *);
unsigned int archive_entry_filetype(struct archive_entry *);
void archive_entry_set_pathname_utf8(struct archive_entry *, const char *);
void archive_entry_set_size(struct archive_entry *, int64_t);
void archive_entry_set_filetype(struct archive_entry *, unsigned int);
void archive_entry_set_perm(struct archive_entry *, unsigned int);
void archive_entry_set_mtime(struct archive_entry *, long, long);
#endif
