"""The pandas side of the frames benchmark: the same records as frames-data.mjs, the same work.

Prints one JSON line: median milliseconds of each operation, a checksum of the results, and the
process's peak resident memory.
"""
import json, os, resource, statistics, time
import numpy as np
import pandas as pd

N = int(os.environ.get('FRAMES_N', '1000000'))
RUNS = int(os.environ.get('FRAMES_RUNS', '5'))
BUILD_RUNS = int(os.environ.get('FRAMES_BUILD_RUNS', '3'))
METRICS = [f"m{j}_rank" for j in range(30)]


def page_json(start, end):
    per_study = -(-N // 240)
    parts = []
    for i in range(start, end):
        s = i // per_study
        brand = 1 + (i * 7919) % 2400
        cat = 1 + (i * 7) % 150
        o = (f'{{"id":{i + 1},"study_id":{100 + s},"brand_id":{brand},"category_id":{cat},"audience_id":1,'
             f'"country_id":{1 + s % 40},"year_id":{1 + s // 40},"brand_name":"Brand {brand}",'
             f'"category_name":"Category {cat}","is_duplicate":{"true" if i % 5 == 0 else "false"}')
        for j in range(30):
            v = 'null' if (i + j) % 17 == 0 else repr(((i * 2654435761 + j * 40503) % 1001) / 10)
            o += f',"{METRICS[j]}":{v}'
        parts.append(o + '}')
    return '[' + ','.join(parts) + ']'


def timed(fn, runs):
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result


records = []
for p in range(0, N, 1000):
    records.extend(json.loads(page_json(p, min(N, p + 1000))))

build_ms, df = timed(lambda: pd.DataFrame(records), BUILD_RUNS)
group = lambda: df.groupby(['country_id', 'brand_id'])[METRICS].mean()
group_year = lambda: df.groupby(['country_id', 'year_id'])[METRICS].mean()
pivot = lambda: df.pivot_table(index='country_id', columns='year_id', values='m0_rank', aggfunc='mean')
# Same order as the toolkit side: with the records still referenced, then with them dropped.
group_alive_ms, _ = timed(group, RUNS)
pivot_alive_ms, _ = timed(pivot, RUNS)
del records
group_ms, means = timed(group, RUNS)
group_year_ms, year_means = timed(group_year, RUNS)
pivot_ms, wide = timed(pivot, RUNS)
where_ms, kept = timed(lambda: df[(df['m0_rank'] >= 40) & (df['is_duplicate'] == False)], RUNS)
sort_ms, sorted_df = timed(lambda: df.sort_values('m1_rank', kind='stable', na_position='last'), RUNS)
sort2_ms, _ = timed(lambda: df.sort_values(['country_id', 'm2_rank'], ascending=[True, False], kind='stable', na_position='last'), RUNS)
try:
    import io
    # Snappy, pandas' default, as src/report/parquet.ts.
    parquet_ms, _ = timed(lambda: df.to_parquet(io.BytesIO(), compression='snappy'), 3)
    parquet = 'pandas to_parquet'
except ImportError as error:
    # Debian packages neither pyarrow nor fastparquet; the venv of the README's Development section has pyarrow.
    parquet_ms, parquet = None, 'pandas cannot write Parquet with this Python (no pyarrow: use the venv of the README\'s Development section)'
print(json.dumps({
    'where_ms': where_ms,
    'where_rows': len(kept),
    'where_checksum': float(np.nansum(kept[METRICS].to_numpy())),
    'sort_ms': sort_ms,
    'sort2_ms': sort2_ms,
    'sort_first_ids': [int(x) for x in sorted_df['id'].to_numpy()[:5]],
    'parquet_ms': parquet_ms,
    'parquet': parquet,
    'build_ms': build_ms,
    'group_ms': group_ms,
    'group_year_ms': group_year_ms,
    'year_groups': len(year_means),
    'group_year_checksum': float(np.nansum(year_means.to_numpy())),
    'pivot_ms': pivot_ms,
    'group_alive_ms': group_alive_ms,
    'pivot_alive_ms': pivot_alive_ms,
    'groups': len(means),
    'group_checksum': float(np.nansum(means.to_numpy())),
    'pivot_shape': list(wide.shape),
    'pivot_checksum': float(np.nansum(wide.to_numpy())),
    'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    'pandas': pd.__version__,
}))
