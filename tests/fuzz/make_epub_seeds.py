#!/usr/bin/env python3
"""The EPUB seeds of tests/fuzz/corpus/epub/ (fuzz_epub): a small valid book, one with a nested
package folder and HTML entities, and a few broken ones. The first byte of a seed picks the mode
(even: a whole .epub; odd: one XHTML document on its own). make_seeds.py calls write(); run alone:
make_epub_seeds.py OUT_DIR. Deterministic (fixed zip timestamps)."""
import io, os, sys, zipfile

CONTAINER = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="%s" media-type="application/oebps-package+xml"/></rootfiles></container>')


def opf(hrefs):
    items = "".join('<item id="c%d" href="%s" media-type="application/xhtml+xml"/>' % (i, h) for i, h in enumerate(hrefs))
    refs = "".join('<itemref idref="c%d"/>' % i for i in range(len(hrefs)))
    return ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata>'
            '<manifest>%s</manifest><spine>%s</spine></package>' % (items, refs))


def xhtml(body):
    return ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>'
            '</head><body>%s</body></html>' % body)


def book(entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return buf.getvalue()


def write(put):
    good = [("mimetype", "application/epub+zip"), ("META-INF/container.xml", CONTAINER % "OEBPS/content.opf"),
            ("OEBPS/content.opf", opf(["one.xhtml", "two%20b.xhtml"])),
            ("OEBPS/one.xhtml", xhtml("<h1>One</h1><p>&lt;|speaker:0|&gt;Hello [pause 1s] there.</p>")),
            ("OEBPS/two b.xhtml", xhtml("<h2>Two</h2><p>A&nbsp;line<br/>and&mdash;more.</p><script>x()</script>"))]
    put("epub", "good.epub", b"\x00" + book(good))
    put("epub", "flat.epub", b"\x02" + book([("META-INF/container.xml", CONTAINER % "c.opf"), ("c.opf", opf(["a.xhtml"])),
                                              ("a.xhtml", xhtml("<ul><li>x</li><li>y</li></ul>"))]))
    put("epub", "traversal.epub", b"\x04" + book(good + [("../evil", "x")]))
    put("epub", "no_container.epub", b"\x06" + book(good[2:]))
    put("epub", "doc.xhtml", b"\x01" + xhtml("<h3>T</h3><p>a<b>b</b>c&hellip;</p><style>p{}</style>").encode())
    put("epub", "broken.xhtml", b"\x03" + b"<html><p>open <b>bold</p></html>")


if __name__ == "__main__":
    out = sys.argv[1]

    def put(harness, name, data):
        d = os.path.join(out, harness)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    write(put)
