#!/usr/bin/env python3
"""Writes a large remconv CSV (`--format csv`) for benchmarks, deterministically.

    csv_generate.py ROWS OUTPUT

The same ROWS always gives the same bytes (a fixed seed, no clock). Rows look like real
reminders: ten lists, one in four rows a subtask of an earlier row, notes with line breaks,
quotes, commas and non-ASCII text, every kind of due date, tags with the `;` separator.
"""
import csv
import random
import sys

COLUMNS = [
    "id", "title", "notes", "isDone", "completedAt", "flagged", "dueDate", "dueTimeZone",
    "priority", "parentId", "tags", "url", "createdAt", "editedAt", "list", "listId",
    "listSymbol", "listColor", "listCreatedAt", "listExtra", "extra",
]
LISTS = ["Groceries", "Work", "Home", "Errands", "Reading", "Garden", "Travel", "Health", "Finance", "Someday"]
WORDS = ("call email buy fix plan write read book pay send check clean water order renew draft review "
         "café crème naïve Tōkyō über smørrebrød 日本語 🙂").split()
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"]
PRIORITIES = ["none", "none", "none", "low", "medium", "high"]


def uid(kind, number):
    return f"{kind:08X}-0000-4000-8000-{number:012X}"


def main():
    rows, output = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(20261129)
    with open(output, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for number in range(rows):
            list_index = number % len(LISTS)
            title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 7))).capitalize()
            notes = ""
            if rng.random() < 0.4:
                lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(rng.randint(1, 4))]
                notes = "\n".join(lines) + (', "quoted", too' if rng.random() < 0.3 else "")
            kind = rng.randrange(5)
            day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            time = f"{rng.randint(0, 23):02d}:{rng.choice(['00', '15', '30', '45'])}:00"
            due, zone = [("", ""), (day, ""), (f"{day}T{time}", ""), (f"{day}T{time}Z", ""),
                         (f"{day}T{time}", rng.choice(ZONES))][kind]
            done = rng.random() < 0.3
            parent = uid(2, rng.randrange(number)) if number > 10 and rng.random() < 0.25 else ""
            tags = ";".join(sorted(rng.sample(["errands", "home", "work", "weekly", "sem\\;i"], rng.randint(0, 2))))
            writer.writerow([
                uid(2, number), title, notes, "true" if done else "false",
                "2026-11-28T16:20:00Z" if done else "", "true" if rng.random() < 0.1 else "false",
                due, zone, rng.choice(PRIORITIES), parent, tags,
                f"https://example.com/{number}?a=1,b=2" if rng.random() < 0.05 else "",
                "2026-11-01T08:00:00Z", "2026-11-02T09:30:00Z",
                LISTS[list_index], uid(1, list_index), "list.bullet", "#007AFF", "2026-01-01T00:00:00Z", "",
                '{"csv":{"Estimate":"2h"}}' if rng.random() < 0.05 else "",
            ])


if __name__ == "__main__":
    main()
