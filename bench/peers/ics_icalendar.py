#!/usr/bin/env python3
"""The python-icalendar peer: parses an iCalendar file and counts its VTODOs.

    ics_icalendar.py FILE.ics

Run by bench/run.sh with the newest icalendar from PyPI (bench/.venv) and with Debian's
python3-icalendar (/usr/bin/python3). A file may hold many VCALENDARs (one per list), which
icalendar reads with `multiple=True`; the whole file is read first, as icalendar requires.
"""
import sys

from icalendar import Calendar


def main():
    with open(sys.argv[1], "rb") as source:
        data = source.read()
    todos = 0
    for calendar in Calendar.from_ical(data, multiple=True):
        todos += sum(1 for _ in calendar.walk("VTODO"))
    print("%d VTODOs (icalendar)" % todos)


if __name__ == "__main__":
    main()
