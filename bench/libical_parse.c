/*
 * libical_parse: how long libical itself takes to parse an iCalendar file, for comparing
 * remconv's import with (docs/benchmarks.md).
 *
 *   cc -O2 -o libical_parse bench/libical_parse.c $(pkg-config --cflags --libs libical)
 *   ./libical_parse calendar.ics [whole|lines]
 *
 * "whole" reads the file into memory and builds one tree with icalparser_parse_string.
 * "lines" feeds content lines to icalparser_add_line, which hands back each top-level
 * component (a VCALENDAR) when it is complete; that is freed before the next is built.
 * Without a mode both run, one after the other. Each prints the VTODOs found and the time.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_since(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* VTODOs in a component and everything below it. */
static long count_todos(icalcomponent *component) {
  long count = icalcomponent_isa(component) == ICAL_VTODO_COMPONENT ? 1 : 0;
  for (icalcomponent *child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT); child;
       child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)) {
    count += count_todos(child);
  }
  return count;
}

/* Opens the input and starts the clock (opening counts: remconv's figure includes it too). */
static FILE *open_timed(const char *path, struct timespec *start) {
  clock_gettime(CLOCK_MONOTONIC, start);
  FILE *file = fopen(path, "rb");
  if (!file) perror(path);
  return file;
}

static int parse_whole(const char *path) {
  struct timespec start;
  FILE *file = open_timed(path, &start);
  if (!file) return 1;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "%s: cannot read\n", path);
    fclose(file);
    free(text);
    return 1;
  }
  text[size] = '\0';
  fclose(file);
  icalcomponent *root = icalparser_parse_string(text);
  long todos = root ? count_todos(root) : 0;
  double elapsed = seconds_since(&start);
  if (root) icalcomponent_free(root);
  free(text);
  printf("whole  %ld VTODOs in %.3f s (icalparser_parse_string)\n", todos, elapsed);
  return root ? 0 : 1;
}

static char *read_stream(char *buffer, size_t size, void *data) {
  return fgets(buffer, (int)size, (FILE *)data);
}

static int parse_lines(const char *path) {
  struct timespec start;
  FILE *file = open_timed(path, &start);
  if (!file) return 1;
  icalparser *parser = icalparser_new();
  icalparser_set_gen_data(parser, file);
  long todos = 0;
  char *line;
  do {
    line = icalparser_get_line(parser, read_stream);
    icalcomponent *component = icalparser_add_line(parser, line);
    /* libical 3.0 documents that it takes the line, but keeps no reference to it and never
       frees it: without this, every line of the file stays in memory (massif shows it). */
    icalmemory_free_buffer(line);
    if (component) {
      todos += count_todos(component);
      icalcomponent_free(component);
    }
  } while (line);
  icalparser_free(parser);
  fclose(file);
  printf("lines  %ld VTODOs in %.3f s (icalparser_add_line)\n", todos, seconds_since(&start));
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.ics [whole|lines]\n", argv[0]);
    return 64;
  }
  icalerror_set_errors_are_fatal(0);
  const char *mode = argc > 2 ? argv[2] : "both";
  int status = 0;
  if (strcmp(mode, "whole") == 0 || strcmp(mode, "both") == 0) status |= parse_whole(argv[1]);
  if (strcmp(mode, "lines") == 0 || strcmp(mode, "both") == 0) status |= parse_lines(argv[1]);
  return status;
}
