# The workbooks of this case that are wrong in one way each, made from
# good parts (run by cmd, in $T).
import zipfile

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')


def book(path, sheet, names=("s",), sst=None):
    wb = (f'<workbook {NS} xmlns:r="{REL}"><sheets>' +
          "".join(f'<sheet name="{n}" sheetId="{i + 1}" r:id="rId1"/>' for i, n in enumerate(names)) +
          "</sheets></workbook>")
    rels = (f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
            + (f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
               if sst is not None else "") +
            "</Relationships>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", wb)
        z.writestr("xl/_rels/workbook.xml.rels", rels)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
        if sst is not None:
            z.writestr("xl/sharedStrings.xml", sst)


def sheet(data):
    return f"<worksheet {NS}><sheetData>{data}</sheetData></worksheet>"


with zipfile.ZipFile("nowb.xlsx", "w") as z:
    z.writestr("notes.txt", "a zip, but not a workbook\n")
book("doctype.xlsx", '<!DOCTYPE x [<!ENTITY a "aaaa">]>' + sheet('<row><c t="inlineStr"><is><t>&a;</t></is></c></row>'))
book("badnum.xlsx", sheet('<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>12abc</v></c></row>'))
book("badsst.xlsx", sheet('<row><c t="s"><v>0</v></c><c t="s"><v>3</v></c></row>'),
     sst=f'<sst {NS}><si><t>zero</t></si></sst>')
book("badref.xlsx", sheet('<row><c r="A1"><v>1</v></c><c r="1B"><v>2</v></c></row>'))
book("badrow.xlsx", sheet('<row r="x"><c><v>1</v></c></row>'))
book("bigcol.xlsx", sheet('<row><c r="XFE1"><v>1</v></c></row>'))
book("twice.xlsx", sheet('<row><c><v>1</v></c></row>'), names=("s", "s"))
# corrupt: a good workbook with the sheet's deflated bytes changed
book("corrupt.xlsx", sheet("".join(f'<row><c><v>{i}</v></c></row>' for i in range(200))))
data = bytearray(open("corrupt.xlsx", "rb").read())
z = zipfile.ZipFile("corrupt.xlsx")
info = z.getinfo("xl/worksheets/sheet1.xml")
start = info.header_offset + 30 + len(info.filename) + len(info.extra)
for i in range(start + 10, start + 40):
    data[i] ^= 0x5a
open("corrupt.xlsx", "wb").write(data)
