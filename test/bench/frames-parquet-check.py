"""Independent read-back of the Parquet file the toolkit's toParquet wrote (frames.bench.mjs):
pyarrow reads it; prints one JSON line with the row count, a null-skipping checksum of the 30
metric columns and each column's Arrow type."""
import json, sys
import pyarrow.compute as pc
import pyarrow.parquet as pq

table = pq.read_table(sys.argv[1])
metrics = [f"m{j}_rank" for j in range(30)]
print(json.dumps({
    'rows': table.num_rows,
    'checksum': float(sum((pc.sum(table[m]).as_py() or 0) for m in metrics)),
    'types': {name: str(table.schema.field(name).type) for name in table.column_names},
    'pyarrow': __import__('pyarrow').__version__,
}))
