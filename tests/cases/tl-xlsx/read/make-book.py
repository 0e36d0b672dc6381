# Writes book.xlsx, the hand-made workbook of this case (kept in the
# tree; run again only to change it: python3 make-book.py).  Its parts
# use what Excel, LibreOffice and openpyxl write, and what they may:
# shared strings (rich text runs, a phonetic run, openpyxl's x005F_),
# inline strings, booleans, error values, a formula's cached string,
# cells and rows without r, a row out of order, gaps, trailing empty
# cells and rows, an empty and a repeated header name, numbers as text
# such as "5.0" and "1E-05", a prefixed namespace, an absolute target,
# a chart sheet (not a worksheet, and its part absent, as openpyxl
# then skips it), a worksheet whose part is absent (skipped too), and a
# one-column sheet with blanks.
import zipfile

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
parts = {}
parts["[Content_Types].xml"] = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
              for i in (1, 3, 4, 5))
    + '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    '</Types>')
parts["_rels/.rels"] = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>'
    '</Relationships>')
parts["xl/workbook.xml"] = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook {NS} {R}><sheets>'
    '<sheet name="kinds" sheetId="1" r:id="rId1"/>'
    '<sheet name="chart" sheetId="2" r:id="rId2"/>'
    '<sheet name="layout" sheetId="3" r:id="rId3"/>'
    '<sheet name="one column" sheetId="4" r:id="rId4"/>'
    '<sheet name="empty" sheetId="5" r:id="rId5"/>'
    '<sheet name="lost" sheetId="6" r:id="rId6"/>'
    '</sheets></workbook>')
parts["xl/_rels/workbook.xml.rels"] = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{REL}/chartsheet" Target="chartsheets/sheet1.xml"/>'
    f'<Relationship Id="rId3" Type="{REL}/worksheet" Target="/xl/worksheets/sheet3.xml"/>'
    f'<Relationship Id="rId4" Type="{REL}/worksheet" Target="worksheets/sheet4.xml"/>'
    f'<Relationship Id="rId5" Type="{REL}/worksheet" Target="worksheets/sheet5.xml"/>'
    f'<Relationship Id="rId6" Type="{REL}/worksheet" Target="worksheets/sheet6.xml"/>'
    f'<Relationship Id="rId9" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
    '</Relationships>')
sst = ["name", "plain", None, "a, \"quoted\"\nline", "x_x005F_x000D_y", "None", "", "nan", "7"]
si = []
for s in sst:
    if s is None:   # rich text and a phonetic run
        si.append('<si><r><rPr><b/></rPr><t>rich</t></r><r><t xml:space="preserve"> text</t></r>'
                  '<rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si>')
    else:
        t = s.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
        si.append(f'<si><t xml:space="preserve">{t}</t></si>')
parts["xl/sharedStrings.xml"] = f'<?xml version="1.0" encoding="UTF-8"?><sst {NS} count="{len(sst)}">' + "".join(si) + "</sst>"


def c(ref, t, v):
    a = f' r="{ref}"' if ref else ""
    if t == "inlineStr":
        return f'<c{a} t="inlineStr"><is>{v}</is></c>'
    ta = f' t="{t}"' if t else ""
    return f"<c{a}{ta}><v>{v}</v></c>" if v is not None else f"<c{a}{ta}/>"


# kinds: one column per kind of cell
rows = [
    [c("A1", "s", 0), c("B1", "inlineStr", "<t>int</t>"), c("C1", "inlineStr", "<t>float</t>"),
     c("D1", "inlineStr", "<t>whole</t>"), c("E1", "inlineStr", "<t>bool</t>"), c("F1", "inlineStr", "<t>error</t>"),
     c("G1", "inlineStr", "<t>formula</t>"), c("H1", "inlineStr", "<t>text</t>")],
    [c("A2", "s", 1), c("B2", None, "42"), c("C2", "n", "0.006786344981086816"), c("D2", None, "5.0"),
     c("E2", "b", "1"), c("F2", "e", "#DIV/0!"), '<c r="G2" t="str"><f>A2&amp;"!"</f><v>plain!</v></c>',
     c("H2", "s", 2)],
    [c("A3", "s", 3), c("B3", None, "-0"), c("C3", None, "1E-05"), c("D3", None, "2.5E+3"),
     c("E3", "b", "0"), c("F3", "e", "#N/A"), '<c r="G3"><f>1+1</f><v>2</v></c>', c("H3", "s", 4)],
    [c("A4", "s", 5), c("B4", None, "123456789012345678901"), c("C4", None, "-31.90548315429687"),
     c("D4", None, "1E+20"), c("E4", "b", ""), c("F4", None, None), c("G4", "str", ""),
     c("H4", "inlineStr", "<r><t>inline </t></r><r><t>runs</t></r>")],
    [c("A5", "s", 6), c("B5", "s", 8), c("C5", "s", 7), c("D5", "d", "2024-01-02T03:04:05"),
     c("E5", "inlineStr", "<t>True</t>"), c("F5", "inlineStr", ""), c("G5", None, None), c("H5", "s", 5)],
]
body = "".join(f'<row r="{i + 1}">{"".join(r)}</row>' for i, r in enumerate(rows))
parts["xl/worksheets/sheet1.xml"] = (
    f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><dimension ref="A1:B2"/>'
    f'<sheetData>{body}</sheetData></worksheet>')

# layout: header with a gap and a repeat; cells and rows without r; a
# row out of order (dropped); gaps; trailing empty cells and rows; the
# x: prefix on every element
X = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
parts["xl/worksheets/sheet3.xml"] = (
    f'<?xml version="1.0" encoding="UTF-8"?><x:worksheet {X}><x:sheetData>'
    '<x:row><x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c><x:c/>'
    '<x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>a.1</x:t></x:is></x:c>'
    '<x:c t="inlineStr"><x:is><x:t>b</x:t></x:is></x:c></x:row>'
    '<x:row><x:c><x:v>1</x:v></x:c><x:c r="C2"><x:v>3</x:v></x:c><x:c><x:v>4</x:v></x:c></x:row>'
    '<x:row r="5"><x:c r="B5"><x:v>2</x:v></x:c><x:c r="F5" t="inlineStr"><x:is><x:t></x:t></x:is></x:c></x:row>'
    '<x:row r="4"><x:c r="A4"><x:v>99</x:v></x:c></x:row>'
    '<x:row r="6"><x:c r="A6" t="inlineStr"><x:is><x:t>last</x:t></x:is></x:c><x:c r="G6"/></x:row>'
    '<x:row r="7"><x:c r="A7" s="1"/></x:row><x:row r="9"/>'
    '</x:sheetData></x:worksheet>')

# one column: blank rows (empty, blank text) vanish, as pandas drops them
parts["xl/worksheets/sheet4.xml"] = (
    f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><sheetData>'
    '<row r="2"><c r="A2" t="inlineStr"><is><t>only</t></is></c></row>'
    '<row r="3"><c r="A3"><v>1</v></c></row>'
    '<row r="5"><c r="A5" t="inlineStr"><is><t xml:space="preserve">  </t></is></c></row>'
    '<row r="6"><c r="A6" t="e"><v>#REF!</v></c></row>'
    '<row r="7"><c r="A7" t="inlineStr"><is><t>x</t></is></c></row>'
    '</sheetData></worksheet>')
parts["xl/worksheets/sheet5.xml"] = f'<worksheet {NS}><sheetData/></worksheet>'

with zipfile.ZipFile("book.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in parts.items():
        zi = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, text)
