#!/usr/bin/env python3
"""The vobject peer: parses an iCalendar file one VCALENDAR at a time and counts its VTODOs.

    ics_vobject.py FILE.ics
"""
import sys

import vobject


def main():
    todos = 0
    with open(sys.argv[1], encoding="utf-8") as source:
        for calendar in vobject.readComponents(source):
            todos += len(calendar.contents.get("vtodo", []))
    print("%d VTODOs (vobject)" % todos)


if __name__ == "__main__":
    main()
