"""Reads a workbook with openpyxl (an independent reader) and prints what the tests check, as JSON.

Usage: python3 read-xlsx.py FILE [MAX_ROWS]
"""
import json
import sys
import warnings

import openpyxl

warnings.simplefilter("ignore")


def cell_value(cell):
    v = cell.value
    if v is None or isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


def main(path, max_rows):
    wb = openpyxl.load_workbook(path)
    out = {"sheets": []}
    for ws in wb.worksheets:
        rows = []
        for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows)):
            rows.append([cell_value(c) for c in row])
        types = []
        formats = []
        for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows)):
            types.append([c.data_type for c in row])
            formats.append([c.number_format for c in row])
        images = []
        widths = {}
        for cd in ws.column_dimensions.values():
            if cd.width and cd.min:
                for c in range(cd.min, (cd.max or cd.min) + 1):
                    widths[c - 1] = cd.width

        def left_px(col, off):
            # Column pixels as Excel draws Calibri 11; a column without a width is 8.43 characters.
            px = sum(int(((256 * widths.get(c, 8.43) + int(128 / 7)) / 256) * 7) for c in range(col))
            return px + off / 9525

        for img in ws._images:
            a = img.anchor
            to = getattr(a, "to", None)
            left = left_px(a._from.col, a._from.colOff)
            right = left_px(to.col, to.colOff) if to is not None else None
            images.append({
                "anchor": type(a).__name__,
                "from": [a._from.col, a._from.row],
                "to": [to.col, to.row] if to is not None else None,
                "format": getattr(img, "format", None),
                "left_px": left,
                "right_px": right,
                "width_px": right - left if right is not None else None,
            })
        bold = [[c.row, c.column] for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows)) for c in row if c.font is not None and c.font.b]
        wrapped = [[c.row, c.column] for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows)) for c in row if c.alignment is not None and c.alignment.wrap_text]
        heights = {str(i): d.height for i, d in ws.row_dimensions.items() if d.height}
        cf = []
        for rng in ws.conditional_formatting:
            for rule in rng.rules:
                cf.append({"range": str(rng.sqref), "type": rule.type})
        out["sheets"].append({
            "name": ws.title,
            "dimensions": ws.dimensions,
            "max_row": ws.max_row,
            "max_column": ws.max_column,
            "freeze": ws.freeze_panes,
            "auto_filter": ws.auto_filter.ref,
            "tables": [{"name": t.name, "ref": t.ref, "style": t.tableStyleInfo.name if t.tableStyleInfo else None,
                        "stripes": bool(t.tableStyleInfo.showRowStripes) if t.tableStyleInfo else False,
                        "columns": [c.name for c in t.tableColumns]} for t in ws.tables.values()],
            "images": images,
            "conditional_formats": cf,
            "bold": bold,
            "wrapped": wrapped,
            "heights": heights,
            "merged": [str(r) for r in ws.merged_cells.ranges],
            "rows": rows,
            "types": types,
            "formats": formats,
        })
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200)
