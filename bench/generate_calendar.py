#!/usr/bin/env python3
"""Writes an iCalendar file of N to-dos for benchmarks (standard library only).

Usage: generate_calendar.py N > calendar.ics

The items look like real exports: one VCALENDAR per list of 1000 items, every due-date
kind (date, UTC, floating, zoned with its VTIMEZONE), priorities, categories, a VALARM on
every fifth item, subtasks (RELATED-TO) on every tenth, completed items with the
STATUS/COMPLETED/PERCENT-COMPLETE triple, long folded descriptions with non-ASCII text.
The output is deterministic for a given N.
"""
import sys

BERLIN = [
    "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST",
    "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET",
    "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
    "END:VTIMEZONE",
]


def fold(line):
    """Folds at 75 octets without splitting a UTF-8 sequence."""
    data = line.encode("utf-8")
    pieces, start, limit = [], 0, 75
    while True:
        end = min(start + limit, len(data))
        while end < len(data) and end > start + 1 and (data[end] & 0xC0) == 0x80:
            end -= 1
        pieces.append(data[start:end])
        start, limit = end, 74
        if start >= len(data):
            break
    return b"\r\n ".join(pieces) + b"\r\n"


def todo(index):
    day = 1 + index % 28
    month = 1 + index % 12
    lines = [
        "BEGIN:VTODO",
        "UID:bench-%08d@remconv.example" % index,
        "DTSTAMP:20260101T120000Z",
        "CREATED:20251201T%02d%02d00Z" % (index % 24, index % 60),
        "LAST-MODIFIED:20251215T%02d%02d00Z" % (index % 24, index % 60),
        "SUMMARY:Task %d \u2014 call Ren\u00e9e about the caf\u00e9\\, then file it" % index,
        "DESCRIPTION:" + "Notes for item %d: bring the forms\\; check twice. " % index * 3,
    ]
    kind = index % 4
    if kind == 0:
        lines.append("DUE;VALUE=DATE:2026%02d%02d" % (month, day))
    elif kind == 1:
        lines.append("DUE:2026%02d%02dT%02d0000Z" % (month, day, index % 24))
    elif kind == 2:
        lines.append("DUE:2026%02d%02dT090000" % (month, day))
    else:
        lines.append("DUE;TZID=Europe/Berlin:2026%02d%02dT173000" % (month, day))
    lines.append("PRIORITY:%d" % (index % 10))
    lines.append("CATEGORIES:work,errands\\, small" if index % 3 == 0 else "CATEGORIES:home")
    if index % 7 == 0:
        lines += ["STATUS:COMPLETED", "COMPLETED:20260102T080000Z", "PERCENT-COMPLETE:100"]
    else:
        lines.append("STATUS:NEEDS-ACTION")
    if index % 10 == 9:
        lines.append("RELATED-TO;RELTYPE=PARENT:bench-%08d@remconv.example" % (index - 1))
    if index % 5 == 0:
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
                  "TRIGGER;RELATED=END:-PT15M", "END:VALARM"]
    lines.append("X-APPLE-SORT-ORDER:%d" % (800000000 + index))
    lines.append("END:VTODO")
    return lines


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    out = sys.stdout.buffer
    for start in range(0, count, 1000):
        header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//remconv//bench generator//EN",
                  "X-WR-CALNAME:Bench list %d" % (start // 1000 + 1)] + BERLIN
        for line in header:
            out.write(fold(line))
        for index in range(start, min(start + 1000, count)):
            for line in todo(index):
                out.write(fold(line))
        out.write(fold("END:VCALENDAR"))


if __name__ == "__main__":
    main()
