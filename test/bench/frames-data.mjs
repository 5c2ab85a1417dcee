// Deterministic brandscape-like records for the frames benchmark, built exactly like
// frames-pandas.py builds them: 1,000-row JSON pages parsed one by one, as the loader does.
// Values are integers / 10 computed with exact integer arithmetic, so both sides hold the same doubles.
export const METRICS = Array.from({ length: 30 }, (_, j) => `m${j}_rank`);

function pageJson(n, start, end) {
  const perStudy = Math.ceil(n / 240);
  const parts = [];
  for (let i = start; i < end; i++) {
    const s = Math.floor(i / perStudy);
    const brand = 1 + ((i * 7919) % 2400);
    const cat = 1 + ((i * 7) % 150);
    let o = `{"id":${i + 1},"study_id":${100 + s},"brand_id":${brand},"category_id":${cat},"audience_id":1,"country_id":${1 + (s % 40)},"year_id":${1 + Math.floor(s / 40)},"brand_name":"Brand ${brand}","category_name":"Category ${cat}","is_duplicate":${i % 5 === 0}`;
    for (let j = 0; j < 30; j++) {
      // i * 2654435761 < 2^53 for i < 3.3M: exact in doubles, like Python's ints.
      const v = (i + j) % 17 === 0 ? 'null' : String(((i * 2654435761 + j * 40503) % 1001) / 10);
      o += `,"${METRICS[j]}":${v}`;
    }
    parts.push(`${o}}`);
  }
  return `[${parts.join(',')}]`;
}

/** The same records as `records(n)`, one parsed 1,000-record page at a time (as the loader hands them over). */
export function* pages(n) {
  for (let p = 0; p < n; p += 1000) yield JSON.parse(pageJson(n, p, Math.min(n, p + 1000)));
}

/** `n` records: 240 studies (40 markets x 6 years), 2,400 brands, 150 categories, 30 metrics (1 in 17 null). */
export function records(n) {
  const out = [];
  for (let p = 0; p < n; p += 1000) for (const r of JSON.parse(pageJson(n, p, Math.min(n, p + 1000)))) out.push(r);
  return out;
}
