"""The baseline: Python's xlsxwriter (Debian python3-xlsxwriter) writing only the Data sheet from
the same rows. Prints {"ms": ..., "peak_mb": ...}.

Mode (third argument): `time` (default) writes in constant_memory mode, xlsxwriter's fastest;
`size` writes its smallest file for the rows, an Excel table over shared strings (constant_memory
writes inline strings and cannot make tables)."""
import json
import resource
import sys
import time

import xlsxwriter

rows_file, out = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "time"
with open(rows_file) as f:
    header = json.loads(f.readline())
    rows = [json.loads(line) for line in f]

start = time.perf_counter()
wb = xlsxwriter.Workbook(out, {"constant_memory": mode == "time"})
ws = wb.add_worksheet("Data")
ws.freeze_panes(1, 0)
if mode == "size":
    ws.add_table(0, 0, len(rows), len(header) - 1, {"columns": [{"header": h} for h in header], "data": rows})
else:
    ws.autofilter(0, 0, len(rows), len(header) - 1)
    bold = wb.add_format({"bold": True})
    ws.write_row(0, 0, header, bold)
    for r, row in enumerate(rows, start=1):
        ws.write_row(r, 0, row)
wb.close()
ms = (time.perf_counter() - start) * 1000
print(json.dumps({"ms": ms, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "xlsxwriter": xlsxwriter.__version__}))
