"""Score sheets made for the import tests: a good sheet's rows, as CSV or XLSX bytes, uploaded."""

import io

import openpyxl

URL = "/api/games/import/sheet/"

GOOD = [
    ["Round", "Ana", "Ben", "Cy"],
    [1, 0, 10, 25],
    [2, 15, 0, 5],
    [3, 0, 20, 10],
    ["Total", 15, 30, 40],
]


def csv_bytes(rows, delimiter=","):
    return "\n".join(delimiter.join("" if v is None else str(v) for v in row) for row in rows).encode()


def xlsx_bytes(rows, title="Scores", prepare=None):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    if prepare:
        prepare(sheet)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def upload(client, data, name="sheet.csv", **fields):
    return client.post(URL, {"file": named(data, name), **fields})


def named(data, name):
    f = io.BytesIO(data)
    f.name = name
    return f
