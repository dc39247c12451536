#!/usr/bin/env python3
"""Records, once, the links each email of Emails/ has, as an independent WHATWG parser reads them.

The Swift tests compare LinkDoctor's reading with these files and never run this script. It needs html5lib (the
WHATWG parser of record here) and, for a second opinion, selectolax (the lexbor engine):
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install html5lib selectolax

Two steps, run from this folder:
    record-expected.py import MIRRORS   copies each email named in Emails/SOURCES from a bare clone under MIRRORS
                                        (MIRRORS/OWNER+NAME/repo, as the session's fetch tool lays them out) at the
                                        commit SOURCES names, rewriting its links (see `rewrite`), into Emails/
    record-expected.py record           writes Emails/NAME.expected.json for every Emails/NAME.html

What is recorded for an email, in the order the parser creates the elements (the order of their start tags):
- "links": the `href` of each HTML `<a>` and `<area>` element, and of each SVG `<a>` (`href`, else `xlink:href`),
  as the URL standard strips it (leading and trailing C0 controls and spaces, and every tab, LF and CR);
- "outlookOnly": the same for the content of each downlevel-hidden conditional comment whose condition holds for
  Outlook on Windows (see `outlook_holds`), with VML elements (`<v:roundrect href>`, any `v:` element) too,
  the content parsed as an HTML fragment;
- "outlookOnlyDiffers": the distinct Outlook-only tracking links (path /pub/acc or /pub/cc) whose host, path and
  `_ri_` no phone link has.
`<template>` content is the one thing html5lib 1.1 does not set apart; `record` refuses an email that has one.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.parse

import html5lib

HERE = os.path.dirname(os.path.abspath(__file__))
EMAILS = os.path.join(HERE, "Emails")
HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"

# ---------------------------------------------------------------------------------------------------------------
# The rewrite: each absolute http(s) href of the original becomes a Responsys tracking link on news.example.com.
# The same original URL always gives the same tracking link (as a link table does), so a VML button and the HTML
# link beside it stay equal. The link's query separator is spelled in one of the ways encoders write it, so the
# corpus exercises character references in real markup. Other hrefs (mailto:, placeholders, #) stay as written.
# ---------------------------------------------------------------------------------------------------------------
SEPARATORS = ["&amp;", "&", "&AMP;", "&#38;", "&#x26;", "&amp"]
HREF = re.compile(r"""(\bhref\s*=\s*)("[^"]*"|'[^']*')""", re.IGNORECASE)


def tracking_link(original):
    digest = hashlib.sha1(original.encode("utf-8")).hexdigest().upper()
    path = "/pub/cc" if int(digest[:8], 16) % 3 == 0 else "/pub/acc"
    separator = SEPARATORS[int(digest[8:10], 16) % len(SEPARATORS)]
    return f"https://news.example.com{path}?_ri_=X0Gzc2X%3D{digest[10:30]}{separator}_ei_=E{digest[30:36]}"


def rewrite(html):
    def replace(match):
        quote, value = match.group(2)[0], match.group(2)[1:-1]
        if not re.match(r"\s*https?://", value, re.IGNORECASE):
            return match.group(0)
        return f"{match.group(1)}{quote}{tracking_link(value.strip())}{quote}"

    return HREF.sub(replace, html)


# ---------------------------------------------------------------------------------------------------------------
# Reading an email with html5lib.
# ---------------------------------------------------------------------------------------------------------------
BaseBuilder = html5lib.getTreeBuilder("etree")


class RecordingBuilder(BaseBuilder):
    """Notes elements and comments in the order the tree builder inserts them, which is the order of their start
    tags. Elements it inserts again to reconstruct open formatting elements (a clone of an unclosed `<a>` in the
    next paragraph) are not start tags of the email, and are not noted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.events = []
        self.inside = 0

    def reset(self):
        super().reset()
        self.events = []
        self.inside = 0

    def note(self, insert, token):
        if self.inside == 0:
            self.events.append(("element", token.get("namespace") or HTML_NS, token["name"], dict(token["data"])))
        self.inside += 1
        try:
            return insert(token)
        finally:
            self.inside -= 1

    def insertElementNormal(self, token):
        return self.note(super().insertElementNormal, token)

    def insertElementTable(self, token):
        return self.note(super().insertElementTable, token)

    def reconstructActiveFormattingElements(self):
        self.inside += 1
        try:
            return super().reconstructActiveFormattingElements()
        finally:
            self.inside -= 1

    def insertComment(self, token, parent=None):
        self.events.append(("comment", token["data"]))
        return super().insertComment(token, parent)


def attribute(attributes, name, namespace=None):
    for key, value in attributes.items():
        if isinstance(key, tuple):
            # html5lib writes adjusted foreign attributes as (prefix, local name, namespace).
            if namespace is not None and key[1] == name and key[2] == namespace:
                return value
        elif namespace is None and key == name:
            return value
    return None


def url_stripped(value):
    value = value.strip("".join(chr(c) for c in range(0x21)))
    return re.sub("[\t\n\r]", "", value)


def events_of(html, fragment=False):
    parser = html5lib.HTMLParser(tree=RecordingBuilder)
    if fragment:
        parser.parseFragment(html)
    else:
        parser.parse(html)
    return parser.tree.events


def links_of(html):
    """(links, outlook_only) of a document."""
    links, outlook = [], []
    for event in events_of(html):
        if event[0] == "element":
            href = element_href(event, outlook=False)
            if href is not None:
                links.append(url_stripped(href))
        else:
            content = outlook_content(event[1])
            if content is not None:
                for inner in events_of(content, fragment=True):
                    if inner[0] == "element":
                        href = element_href(inner, outlook=True)
                        if href is not None:
                            outlook.append(url_stripped(href))
    return links, outlook


def element_href(event, outlook):
    _, namespace, name, attributes = event
    if namespace == HTML_NS and (name in ("a", "area") or (outlook and name.startswith("v:"))):
        return attribute(attributes, "href")
    if namespace == SVG_NS and name == "a":
        href = attribute(attributes, "href")
        return href if href is not None else attribute(attributes, "href", XLINK_NS)
    return None


# ---------------------------------------------------------------------------------------------------------------
# Outlook's conditional comments: `<!--[if CONDITION]>CONTENT<![endif]-->`. The condition is evaluated for Outlook
# 2000 to 365 on Windows (mso 9, 10, 11, 12, 14, 15, 16); `mso` holds, `true` holds, any other feature (IE) does
# not. The content runs from `]>` to the last `<![endif]` (or the comment's end).
# ---------------------------------------------------------------------------------------------------------------
OUTLOOK_VERSIONS = [9, 10, 11, 12, 14, 15, 16]
CONDITIONAL = re.compile(r"^\[if([^\]]*)\]>", re.IGNORECASE)
TOKEN = re.compile(r"\s*(?:(\()|(\))|(!)|(&)|(\|)|((?:(?:lt|lte|gt|gte)\s+)?[A-Za-z0-9.]+(?:\s+[0-9][0-9.]*)?))", re.IGNORECASE)


def outlook_content(comment):
    match = CONDITIONAL.match(comment)
    if not match or not outlook_holds(match.group(1)):
        return None
    content = comment[match.end():]
    end = content.lower().rfind("<![endif]")
    return content if end < 0 else content[:end]


def term_holds(term, version):
    words = term.lower().split()
    comparison = words.pop(0) if words[0] in ("lt", "lte", "gt", "gte") and len(words) > 1 else None
    feature = words[0]
    number = int(words[1].split(".")[0]) if len(words) > 1 else None
    if feature == "true" and number is None and comparison is None:
        return True
    if feature != "mso":
        return False
    if number is None:
        return True
    return {"lt": version < number, "lte": version <= number, "gt": version > number,
            "gte": version >= number, None: version == number}[comparison]


def outlook_holds(condition):
    tokens, position = [], 0
    condition = condition.rstrip()
    while position < len(condition):
        match = TOKEN.match(condition, position)
        if not match:
            return False
        tokens.append(match)
        position = match.end()
    for version in OUTLOOK_VERSIONS:
        python = []
        for token in tokens:
            if token.group(1): python.append("(")
            elif token.group(2): python.append(")")
            elif token.group(3): python.append(" not ")
            elif token.group(4): python.append(" and ")
            elif token.group(5): python.append(" or ")
            else: python.append(str(term_holds(token.group(6), version)))
        try:
            if eval("".join(python), {"__builtins__": {}}):
                return True
        except SyntaxError:
            return False
    return False


# ---------------------------------------------------------------------------------------------------------------
# Tracking links compared the way the doctor's finding compares them.
# ---------------------------------------------------------------------------------------------------------------
def tracking_key(link):
    parts = urllib.parse.urlsplit(link)
    if parts.scheme.lower() not in ("http", "https") or parts.path not in ("/pub/acc", "/pub/cc"):
        return None
    ri = next((item[5:] for item in parts.query.split("&") if item.startswith("_ri_=")), "")
    return ((parts.hostname or "").rstrip("."), parts.path, ri)


def outlook_differs(links, outlook):
    phone = {tracking_key(link) for link in links} - {None}
    seen, differs = set(), []
    for link in outlook:
        key = tracking_key(link)
        if key is not None and key not in phone and link not in seen:
            differs.append(link)
        seen.add(link)
    return differs


# ---------------------------------------------------------------------------------------------------------------
# The two steps.
# ---------------------------------------------------------------------------------------------------------------
def sources():
    with open(os.path.join(EMAILS, "SOURCES"), encoding="utf-8") as file:
        for line in file:
            if line.strip() and not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def git_show(mirrors, repository, commit, path):
    git = os.path.join(mirrors, repository.replace("/", "+"), "repo")
    if os.path.isdir(os.path.join(git, ".git")):
        git = os.path.join(git, ".git")
    return subprocess.run(["git", "-C", git, "show", f"{commit}:{path}"], check=True,
                          capture_output=True).stdout.decode("utf-8")


def import_emails(mirrors):
    licences = {}
    for name, repository, commit, path, licence, licence_file in sources():
        original = git_show(mirrors, repository, commit, path)
        notice = (f"<!-- {repository} {path} at {commit[:12]} ({licence}, see LICENSES); its http(s) links "
                  f"rewritten into tracking links by record-expected.py. -->\n")
        with open(os.path.join(EMAILS, name + ".html"), "w", encoding="utf-8", newline="") as file:
            file.write(notice + rewrite(original))
        licences.setdefault(repository, (commit, licence_file, licence))
        print(f"imported {name} from {repository} {path}")
    with open(os.path.join(EMAILS, "LICENSES"), "w", encoding="utf-8") as file:
        for repository, (commit, licence_file, licence) in licences.items():
            text = git_show(mirrors, repository, commit, licence_file).strip()
            file.write(f"== {repository} ({licence}), {licence_file} at {commit}\n\n{text}\n\n")


def second_opinion(html):
    """The distinct links lexbor finds, or None without selectolax."""
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        return None
    tree = LexborHTMLParser(html)
    return {url_stripped(node.attributes.get("href") or "") for node in tree.css("a[href], area[href]")}


def record():
    names = sorted(row[0] for row in sources())
    for name in names:
        with open(os.path.join(EMAILS, name + ".html"), encoding="utf-8", newline="") as file:
            html = file.read()
        if re.search(r"<template[\s>]", html, re.IGNORECASE):
            sys.exit(f"{name}: has <template>, whose content html5lib 1.1 does not set apart")
        links, outlook = links_of(html)
        lexbor = second_opinion(html)
        if lexbor is not None and lexbor != set(links):
            print(f"{name}: lexbor disagrees: {sorted(lexbor ^ set(links))}")
        expected = {"links": links, "outlookOnly": outlook, "outlookOnlyDiffers": outlook_differs(links, outlook)}
        with open(os.path.join(EMAILS, name + ".expected.json"), "w", encoding="utf-8") as file:
            json.dump(expected, file, indent=1, ensure_ascii=False)
            file.write("\n")
        print(f"{name}: {len(links)} links, {len(outlook)} Outlook-only")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "import":
        import_emails(sys.argv[2])
    elif len(sys.argv) == 2 and sys.argv[1] == "record":
        record()
    else:
        sys.exit(__doc__)
