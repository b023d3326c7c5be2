#!/usr/bin/env python3
"""Writes a deterministic benchmark corpus as remconv JSON Lines.

    generate.py COUNT > corpus.jsonl
    generate.py COUNT --tsv > rows.tsv     (the same rows as stored, for bench/sqlite_insert.c)

Every feature the model carries is present in fixed proportions: many lists, all four due-date
kinds (all-day, floating, UTC, zoned in several IANA zones), subtasks two levels deep, notes
with newlines, quotes, commas, leading spaces and non-ASCII text, tags, URLs, completed items,
flags, priorities, timestamps, and iCalendar extras (a VALARM and an RRULE) on some items. The
same COUNT always gives the same bytes (a fixed linear congruential generator, no `random`).
"""
import json
import sys

ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles"]
WORDS = ["milk", "report", "café", "plumber", "forecast", "Tōkyō", "passport", "plants", "invoice",
         "birthday", "dentist", "crème brûlée", "tyres", "Überweisung", "naïve", "emoji 🌿"]


class Sequence:
    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % bound


def reminder(index, lists, rng):
    # A subtask sits in its parent's list (see the families below), as in a reminders app:
    # anything else is a finding of `remconv validate`.
    family = index - index % 10 if index % 10 in (1, 2) else index
    list_index = family % lists
    uid = "BENCH-%08d" % index
    day = 1 + rng.next(28)
    month = 1 + rng.next(12)
    kind = rng.next(5)
    item = {
        "list": "List %03d" % list_index,
        "listId": "BENCH-LIST-%03d" % list_index,
        "listSymbol": "list.bullet",
        "listColor": "#%06X" % ((list_index * 2654435761) % 0xFFFFFF),
        "listCreatedAt": "2026-01-01T00:00:00Z",
        "id": uid,
        "title": "%s %s #%d" % (WORDS[rng.next(len(WORDS))].capitalize(), WORDS[rng.next(len(WORDS))], index),
        "notes": "",
        "isDone": False,
        "completedAt": None,
        "flagged": rng.next(7) == 0,
        "dueDate": None,
        "dueTimeZone": None,
        "priority": ["none", "low", "medium", "high"][rng.next(4)],
        "parentId": None,
        "tags": [],
        "url": None,
        "createdAt": "2026-%02d-%02dT08:%02d:00Z" % (month, day, rng.next(60)),
        "editedAt": "2026-%02d-%02dT09:%02d:00Z" % (month, day, rng.next(60)),
        "extra": {},
    }
    if kind == 1:
        item["dueDate"] = "2027-%02d-%02d" % (month, day)
    elif kind == 2:
        item["dueDate"] = "2027-%02d-%02dT%02d:30:00" % (month, day, rng.next(24))
    elif kind == 3:
        item["dueDate"] = "2027-%02d-%02dT%02d:00:00Z" % (month, day, rng.next(24))
    elif kind == 4:
        item["dueDate"] = "2027-%02d-%02dT%02d:15:00" % (month, day, rng.next(24))
        item["dueTimeZone"] = ZONES[rng.next(len(ZONES))]
    if rng.next(3) == 0:
        item["notes"] = '  Line one, with "quotes"\nLine two: %s; ok\n\ttabbed' % WORDS[rng.next(len(WORDS))]
    if rng.next(4) == 0:
        item["tags"] = [WORDS[rng.next(len(WORDS))], "batch %d" % (index % 10)]
    if rng.next(10) == 0:
        item["url"] = "https://example.com/items/%d?ref=bench&x=1" % index
    if rng.next(5) == 0:
        item["isDone"] = True
        item["completedAt"] = "2026-%02d-%02dT18:00:00Z" % (month, day)
    # Subtasks: every 10th item starts a family; the next two are its child and grandchild.
    if index % 10 in (1, 2):
        item["parentId"] = "BENCH-%08d" % (index - 1)
    # The draw comes first so that every other item stays as it was; only dated items repeat and
    # have an alarm (RFC 5545: a rule needs its DTSTART, a relative trigger the date it names).
    if rng.next(8) == 0 and item["dueDate"]:
        # The iCalendar format's own lossless bag: content lines written back as they are.
        item["extra"] = {"ical": {"lines": ["RRULE:FREQ=WEEKLY;BYDAY=MO", "BEGIN:VALARM", "ACTION:DISPLAY",
                                            "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:-PT15M", "END:VALARM"]}}
    return item


def tsv_row(item):
    """The row as remconv stores it, for the C SQLite floor (bench/sqlite_insert.c)."""
    def text(value):
        if value is None:
            return "\\N"
        return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    kind = None
    if item["dueDate"]:
        kind = "date" if len(item["dueDate"]) == 10 else "utc" if item["dueDate"].endswith("Z") else "zoned" if item["dueTimeZone"] else "floating"
    priority = ["none", "low", "medium", "high"].index(item["priority"])
    columns = [item["id"], item["list"], item["listId"], item["title"], item["notes"], int(item["isDone"]),
               item["completedAt"], int(item["flagged"]), item["dueDate"], kind, item["dueTimeZone"], priority,
               json.dumps(item["tags"], ensure_ascii=False), item["url"], item["createdAt"], item["editedAt"],
               json.dumps(item["extra"], ensure_ascii=False, separators=(",", ":"))]
    return "\t".join(text(column) for column in columns)


def main():
    count = int(sys.argv[1])
    as_tsv = len(sys.argv) > 2 and sys.argv[2] == "--tsv"
    lists = max(1, min(500, count // 200))
    rng = Sequence(20261129)
    out = sys.stdout
    for index in range(count):
        item = reminder(index, lists, rng)
        out.write(tsv_row(item) if as_tsv else json.dumps(item, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()
