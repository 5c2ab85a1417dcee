"""The Python polars side of the frames benchmark: the same records as frames-data.mjs and
frames-pandas.py, the same work. Run by frames.bench.mjs with the Python named by
FRAMES_POLARS_PYTHON (default ~/.venvs/frames/bin/python; see the README's Development section).

Prints one JSON line: median milliseconds of each operation, checksums of the results, and the
process's peak resident memory.
"""
import io, json, os, resource, statistics, time
import polars as pl

from frames_data import BUILD_RUNS, METRICS, N, RUNS, load_records, timed


def total(frame, columns):
    # Null-skipping sum over the columns, like numpy's nansum on the pandas side.
    return float(sum(frame[c].sum() or 0 for c in columns))


records = load_records()

build_ms, df = timed(lambda: pl.DataFrame(records), BUILD_RUNS)
means_of = [pl.col(m).mean() for m in METRICS]
group = lambda: df.group_by(['country_id', 'brand_id']).agg(means_of)
group_year = lambda: df.group_by(['country_id', 'year_id']).agg(means_of)
pivot = lambda: df.pivot(on='year_id', index='country_id', values='m0_rank', aggregate_function='mean')
# Same order as the other sides: with the records still referenced, then with them dropped.
group_alive_ms, _ = timed(group, RUNS)
pivot_alive_ms, _ = timed(pivot, RUNS)
del records
group_ms, means = timed(group, RUNS)
group_year_ms, year_means = timed(group_year, RUNS)
pivot_ms, wide = timed(pivot, RUNS)
where_ms, kept = timed(lambda: df.filter((pl.col('m0_rank') >= 40) & (pl.col('is_duplicate') == False)), RUNS)
# Issue 29: a filter followed by a group-by, as an analyst chains them; eager, as the other
# figures are (the filter copies every column, then the group-by reads the kept rows), and the
# lazy query for comparison (polars pushes the projection down: only the columns the group-by reads).
where_cond = (pl.col('m0_rank') >= 40) & (pl.col('is_duplicate') == False)
where_group_ms, where_means = timed(lambda: df.filter(where_cond).group_by(['country_id', 'year_id']).agg(means_of), RUNS)
where_group_lazy_ms, _ = timed(lambda: df.lazy().filter(where_cond).group_by(['country_id', 'year_id']).agg(means_of).collect(), RUNS)
sort_ms, sorted_df = timed(lambda: df.sort('m1_rank', nulls_last=True, maintain_order=True), RUNS)
sort2_ms, _ = timed(lambda: df.sort(['country_id', 'm2_rank'], descending=[False, True], nulls_last=True, maintain_order=True), RUNS)
# src/io/parquet.ts writes Snappy pages by default; polars' own default is zstd.
parquet_ms, _ = timed(lambda: df.write_parquet(io.BytesIO(), compression='snappy'), 3)
print(json.dumps({
    'build_ms': build_ms,
    'group_ms': group_ms,
    'group_year_ms': group_year_ms,
    'pivot_ms': pivot_ms,
    'group_alive_ms': group_alive_ms,
    'pivot_alive_ms': pivot_alive_ms,
    'groups': means.height,
    'group_checksum': total(means, METRICS),
    'year_groups': year_means.height,
    'group_year_checksum': total(year_means, METRICS),
    'pivot_shape': [wide.height, wide.width - 1],
    'pivot_checksum': total(wide, [c for c in wide.columns if c != 'country_id']),
    'where_ms': where_ms,
    'where_rows': kept.height,
    'where_checksum': total(kept, METRICS),
    'where_group_ms': where_group_ms,
    'where_group_lazy_ms': where_group_lazy_ms,
    'where_groups': where_means.height,
    'where_group_checksum': total(where_means, METRICS),
    'sort_ms': sort_ms,
    'sort2_ms': sort2_ms,
    'sort_first_ids': [int(x) for x in sorted_df['id'][:5].to_list()],
    'parquet_ms': parquet_ms,
    'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    'polars': pl.__version__,
    'threads': pl.thread_pool_size(),
}))
