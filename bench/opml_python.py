#!/usr/bin/env python3
"""A reference point for bench/opml.sh: Python's ElementTree reads an OPML file with
iterparse (streaming, clearing each finished outline) and counts the outlines and done ones.

    opml_python.py INPUT
"""
import sys
import xml.etree.ElementTree as ET


def main():
    outlines = done = 0
    for _, element in ET.iterparse(sys.argv[1], events=("end",)):
        if element.tag == "outline":
            outlines += 1
            if element.get("_complete") == "true" or element.get("_status") == "checked":
                done += 1
            element.clear()
    print(outlines, done)


if __name__ == "__main__":
    main()
