#!/usr/bin/env python3
"""Writes the table of HTML named character references that LinkDoctor's email reader decodes.

The table is the WHATWG HTML standard's (2 231 names, with and without `;`), as Python's standard library
carries it (`html.entities.html5`), so nothing is typed by hand. Two files are written from it:

- Sources/LinkDoctor/Campaign/HTMLEntities+Table.swift: one string literal, a line per name
  (`name HEX HEX`), sorted by bytes, which the decoder reads once into arrays;
- Tests/LinkDoctorTests/Fixtures/html-entities.tsv: `name<TAB>HEX HEX`, read by the test that decodes every
  entry through the email reader.

Run from the package root: python3 Scripts/generate-html-entities.py
"""
import html.entities
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.path.join(ROOT, "Sources", "LinkDoctor", "Campaign", "HTMLEntities+Table.swift")
TSV = os.path.join(ROOT, "Tests", "LinkDoctorTests", "Fixtures", "html-entities.tsv")


def main():
    table = html.entities.html5
    if len(table) != 2231:
        sys.exit(f"expected the standard's 2 231 names, Python {sys.version.split()[0]} has {len(table)}")
    names = sorted(table, key=lambda name: name.encode("ascii"))
    lines = [(name, " ".join(f"{ord(c):X}" for c in table[name])) for name in names]

    with open(SWIFT, "w", encoding="utf-8") as out:
        out.write("// The WHATWG HTML standard's named character references, written by Scripts/generate-html-entities.py\n")
        out.write("// from Python's html.entities.html5: do not edit, run the script.\n\n")
        out.write("extension HTMLEntities {\n")
        out.write("    /// One line per name, sorted by bytes: the name (with its `;` when the standard writes one), then the\n")
        out.write("    /// code points it stands for, in hex. Names without `;` are the standard's legacy names.\n")
        out.write('    static let tableText: StaticString = """\n')
        for name, points in lines:
            out.write(f"        {name} {points}\n")
        out.write('        """\n')
        out.write("}\n")

    with open(TSV, "w", encoding="utf-8") as out:
        for name, points in lines:
            out.write(f"{name}\t{points}\n")
    print(f"wrote {len(lines)} names to {os.path.relpath(SWIFT, ROOT)} and {os.path.relpath(TSV, ROOT)}")


if __name__ == "__main__":
    main()
