"""What the Python sides of the frames benchmark share (frames-pandas.py, frames-polars.py): the
same records as frames-data.mjs, and the timing rule."""
import json, os, statistics, time

N = int(os.environ.get('FRAMES_N', '1000000'))
RUNS = int(os.environ.get('FRAMES_RUNS', '5'))
BUILD_RUNS = int(os.environ.get('FRAMES_BUILD_RUNS', '3'))
METRICS = [f"m{j}_rank" for j in range(30)]


def page_json(start, end):
    """Records start..end as the JSON text of a page, identical to frames-data.mjs."""
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


def load_records():
    """The N records, parsed page by page as a client would."""
    records = []
    for p in range(0, N, 1000):
        records.extend(json.loads(page_json(p, min(N, p + 1000))))
    return records


def timed(fn, runs):
    """Median milliseconds of `runs` calls of fn, and the last result."""
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result
