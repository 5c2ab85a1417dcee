"""The pandas side of the frames benchmark: the same records as frames-data.mjs, the same work.

Prints one JSON line: median milliseconds of each operation, a checksum of the results, and the
process's peak resident memory.
"""
import json, os, resource, statistics, time
import numpy as np
import pandas as pd

from frames_data import BUILD_RUNS, METRICS, N, RUNS, load_records, timed


records = load_records()

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
where_group_ms, where_means = timed(lambda: df[(df['m0_rank'] >= 40) & (df['is_duplicate'] == False)].groupby(['country_id', 'year_id'])[METRICS].mean(), RUNS)
sort_ms, sorted_df = timed(lambda: df.sort_values('m1_rank', kind='stable', na_position='last'), RUNS)
sort2_ms, _ = timed(lambda: df.sort_values(['country_id', 'm2_rank'], ascending=[True, False], kind='stable', na_position='last'), RUNS)
try:
    import io
    # Snappy, pandas' default, as src/io/parquet.ts.
    parquet_ms, _ = timed(lambda: df.to_parquet(io.BytesIO(), compression='snappy'), 3)
    parquet = 'pandas to_parquet'
except ImportError as error:
    # Debian packages neither pyarrow nor fastparquet; the venv of the README's Development section has pyarrow.
    parquet_ms, parquet = None, 'pandas cannot write Parquet with this Python (no pyarrow: use the venv of the README\'s Development section)'
print(json.dumps({
    'where_ms': where_ms,
    'where_rows': len(kept),
    'where_checksum': float(np.nansum(kept[METRICS].to_numpy())),
    'where_group_ms': where_group_ms,
    'where_groups': len(where_means),
    'where_group_checksum': float(np.nansum(where_means.to_numpy())),
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
