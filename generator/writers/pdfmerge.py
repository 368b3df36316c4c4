"""Merge PDFs that :mod:`.pdf` wrote into one, without drawing any page again.

The merged print PDF of a pack is its sheets' PDFs, page after page. Rather than render every page a second time,
this reads the files already written — reportlab's plain layout: numbered objects, a classic cross-reference
table, no object streams — renumbers their objects into one file and writes each distinct object once. Objects
are compared by content (their references compared by what they point to), so the font subsets every PDF of a run
shares (see :mod:`.pdf`) are embedded once. Deterministic: the same inputs give the same bytes.

Only PDFs from Paddock's own writer are merged; anything else is a ``ValueError`` (a bug, not a user error).
"""

from __future__ import annotations

import hashlib
import re

_XREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_REF = re.compile(rb"(/Parent )?(\d+) 0 R\b")  # a page's link to its parent is rewritten, not followed
_STREAM = re.compile(rb">>\s*stream\r?\n")


class _Pdf:
    """One reportlab PDF: its objects' bodies (the bytes between ``N 0 obj`` and ``endobj``) and trailer."""

    def __init__(self, data: bytes) -> None:
        m = _XREF.search(data[-64:])
        if not m or not data.startswith(b"%PDF-"):
            raise ValueError("not a PDF written by Paddock")
        xref = int(m.group(1))
        head = data[xref : xref + 64].split(b"\n")
        if head[0].strip() != b"xref":
            raise ValueError("PDF without a classic cross-reference table")
        first, count = (int(v) for v in head[1].split())
        table_start = xref + len(head[0]) + len(head[1]) + 2
        offsets: dict[int, int] = {}
        for i in range(count):
            entry = data[table_start + 20 * i : table_start + 20 * i + 20]
            if entry[17:18] == b"n":
                offsets[first + i] = int(entry[:10])
        ends = sorted(offsets.values()) + [xref]
        nxt = {o: ends[i + 1] for i, o in enumerate(ends[:-1])}
        self.objects: dict[int, bytes] = {}
        for num, off in offsets.items():
            raw = data[off : nxt[off]]
            start = raw.index(b" obj") + 4
            end = raw.rindex(b"endobj")
            self.objects[num] = raw[start:end].strip(b"\r\n ")
        trailer = data[xref:]
        self.root = int(re.search(rb"/Root (\d+) 0 R", trailer).group(1))
        self.info = re.search(rb"/Info (\d+) 0 R", trailer)

    def dict_part(self, num: int) -> bytes:
        body = self.objects[num]
        m = _STREAM.search(body)
        return body[: m.start() + 2] if m else body

    def refs(self, num: int) -> list[int]:
        return [int(n) for parent, n in _REF.findall(self.dict_part(num)) if not parent]

    def pages(self) -> list[int]:
        """The page objects in order, from the page tree."""
        pages_ref = re.search(rb"/Pages (\d+) 0 R", self.objects[self.root]).group(1)
        out: list[int] = []

        def visit(num: int) -> None:
            body = self.dict_part(num)
            if re.search(rb"/Type /Pages\b", body):
                kids = re.search(rb"/Kids \[([^\]]*)\]", body).group(1)
                for _, k in _REF.findall(kids):
                    visit(int(k))
            else:
                out.append(num)

        visit(int(pages_ref))
        return out


def _pdf_string(text: str) -> bytes:
    """A PDF text string: ASCII as a literal, anything else as UTF-16BE hex."""
    if text.isascii():
        esc = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return b"(" + "".join(ch if 32 <= ord(ch) < 127 else " " for ch in esc).encode("ascii") + b")"
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def merge(pdfs: list[bytes], title: str = "Paddock") -> bytes:
    """One PDF with every page of ``pdfs`` in order; objects identical across the inputs are written once."""
    docs = [_Pdf(d) for d in pdfs]
    keys: dict[tuple[int, int], bytes] = {}  # (doc, object) -> content key (a hash)
    stack: set[tuple[int, int]] = set()

    def key(d: int, num: int) -> bytes:
        """A hash of an object's content with each reference replaced by its target's hash (pages excepted:
        every page is its own object)."""
        k = (d, num)
        if k in keys:
            return keys[k]
        if k in stack:  # a cycle: identity is the object itself
            return b"cycle:%d:%d" % k
        stack.add(k)
        body = docs[d].objects[num]
        dict_part = docs[d].dict_part(num)
        if re.search(rb"/Type /Page\b", dict_part):
            h = b"page:%d:%d" % k
        else:
            sub = _REF.sub(lambda m: m.group(0) if m.group(1) else b"<" + key(d, int(m.group(2))) + b">", dict_part)
            h = hashlib.sha256(sub + body[len(dict_part) :]).digest()
        stack.discard(k)
        keys[k] = h
        return h

    # Number every object reachable from the pages, in order of first reach; equal contents share a number.
    number: dict[bytes, int] = {}
    order: list[tuple[int, int]] = []
    page_nums: list[int] = []
    first_free = 4  # 1 catalog, 2 page tree, 3 info

    def reach(d: int, num: int) -> int:
        h = key(d, num)
        if h in number:
            return number[h]
        number[h] = first_free + len(order)
        order.append((d, num))
        for ref in docs[d].refs(num):
            reach(d, ref)
        return number[h]

    for d, doc in enumerate(docs):
        for p in doc.pages():
            page_nums.append(reach(d, p))

    out = bytearray(b"%PDF-1.4\n%\x93\x8c\x8b\x9e Paddock\n")
    offsets: list[int] = []

    def emit(num: int, body: bytes) -> None:
        offsets.append(len(out))
        out.extend(b"%d 0 obj\n" % num + body + b"\nendobj\n")

    kids = b" ".join(b"%d 0 R" % n for n in page_nums)
    emit(1, b"<< /PageMode /UseNone /Pages 2 0 R /Type /Catalog >>")
    emit(2, b"<< /Count %d /Kids [ %s ] /Type /Pages >>" % (len(page_nums), kids))
    emit(
        3,
        b"<< /Author (Paddock) /CreationDate (D:20000101000000+00'00') /Creator (Paddock) "
        b"/ModDate (D:20000101000000+00'00') /Producer (Paddock) /Title " + _pdf_string(title) + b" >>",
    )
    for d, num in order:
        doc = docs[d]
        body = doc.objects[num]
        dict_part = doc.dict_part(num)
        new = _REF.sub(
            lambda m, d=d: b"/Parent 2 0 R" if m.group(1) else b"%d 0 R" % number[key(d, int(m.group(2)))], dict_part
        )
        emit(number[key(d, num)], new + body[len(dict_part) :])
    xref = len(out)
    size = 4 + len(order)
    out.extend(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for off in offsets:
        out.extend(b"%010d 00000 n \n" % off)
    digest = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest().encode("ascii")
    out.extend(
        b"trailer\n<< /ID [<%s><%s>] /Info 3 0 R /Root 1 0 R /Size %d >>\nstartxref\n%d\n%%%%EOF\n"
        % (digest, digest, size, xref)
    )
    return bytes(out)
