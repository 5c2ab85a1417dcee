/**
 * Looking at tables: toString()/print() and toHtml() on literal data, describe()'s statistics
 * checked by hand, toCsv()/writeCsv() read back by independent readers (Debian's python3 csv
 * module, and DuckDB's CSV reader through @duckdb/node-api), and display(table)'s bundle.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { display, tableMimeBundle, type MimeBundle } from '../../src/notebook/display.js';
import { FrameTable } from '../../src/frames/frame-table.js';
import { textColumn } from '../../src/frames/string-dictionary.js';
import { toTable } from '../../src/frames/to-table.js';
import { OutputError } from '../../src/io/atomic-file.js';
import { writeCsv } from '../../src/io/write-csv.js';

const brands = toTable([
  { brand: 'Veros', market: 'GB', year: 2024, esteem_rank: 71.25, is_duplicate: false, released_at: '2024-03-01T00:00:00Z' },
  { brand: 'Procter & Gamble, Inc.', market: 'DE', year: 2023, esteem_rank: null, is_duplicate: true, released_at: null },
  { brand: 'Aldo "Shoes"', market: null, year: 2024, esteem_rank: 8, is_duplicate: null, released_at: '2023-01-15T00:00:00Z' },
]);

/** A table of `n` rows: an id, a float of thirds and a text. */
const long = (n: number) =>
  new FrameTable(
    [
      ['id', { kind: 'int', values: Int32Array.from({ length: n }, (_, i) => i + 1) }],
      ['third', { kind: 'float', values: Float64Array.from({ length: n }, (_, i) => i / 3) }],
      ['name', textColumn(n, (i) => `Brand ${i + 1}`)],
    ],
    n,
    { source: 'long', notes: [] },
  );

describe('toString() and print()', () => {
  it('aligns columns under their names and kinds, numbers right, text left, missing values as null', () => {
    expect(brands.toString()).toBe(
      [
        'toTable: 3 rows × 6 columns',
        'brand                   market  year  esteem_rank  is_duplicate  released_at',
        'string                  string   int        float  bool          date',
        '──────────────────────  ──────  ────  ───────────  ────────────  ───────────',
        'Veros                   GB      2024        71.25  false         2024-03-01',
        'Procter & Gamble, Inc.  DE      2023         null  true          null',
        'Aldo "Shoes"            null    2024         8.00  null          2023-01-15',
      ].join('\n'),
    );
  });

  it('shows the head and the tail of a long table around a "… N more rows" line', () => {
    expect(long(25).toString({ rows: 6 })).toBe(
      [
        'long: 25 rows × 3 columns',
        ' id  third  name',
        'int  float  string',
        '───  ─────  ────────',
        '  1  0.000  Brand 1',
        '  2  0.333  Brand 2',
        '  3  0.667  Brand 3',
        '… 19 more rows',
        ' 23  7.333  Brand 23',
        ' 24  7.667  Brand 24',
        ' 25  8.000  Brand 25',
      ].join('\n'),
    );
    // Ten rows by default; a million rows cost what ten do (only the shown rows are read).
    const lines = long(1_000_000).toString().split('\n');
    expect(lines[0]).toBe('long: 1,000,000 rows × 3 columns');
    expect(lines).toHaveLength(4 + 10 + 1);
    expect(lines[9]).toBe('… 999,990 more rows');
    expect(lines.at(-1)).toBe('1000000  333333.000  Brand 1000000');
  });

  it('rounds for display only, to the decimals the shown values need (at most `decimals`)', () => {
    const t = new FrameTable(
      [['v', { kind: 'float', values: Float64Array.of(1 / 3, 2, -0.5, 1e-9, 1e20, Infinity, -0.0001) }]],
      7,
      { source: 't', notes: [] },
    );
    expect(t.toString({ decimals: 2 }).split('\n').slice(4)).toEqual(['     0.33', '     2.00', '    -0.50', '  1.00e-9', '1.000e+20', '      inf', ' -1.00e-4']);
    expect(t.numbers('v')[0]).toBe(1 / 3);
  });

  it('cuts long text and names to the column width, counting wide characters twice, and keeps values on their line', () => {
    const t = new FrameTable(
      [
        ['a_rather_long_column_name', textColumn(3, (i) => ['Procter & Gamble Company', '日本の会社です', 'two\nlines\tand a tab'][i]!)],
        ['n', { kind: 'int', values: Int32Array.of(1, 2, 3) }],
      ],
      3,
      { source: 't', notes: [] },
    );
    expect(t.toString({ columnWidth: 12 })).toBe(
      [
        't: 3 rows × 2 columns',
        'a_rather_lo…    n',
        'string        int',
        '────────────  ───',
        'Procter & G…    1',
        '日本の会社…     2',
        'two\\nlines\\…    3',
      ].join('\n'),
    );
  });

  it('leaves out the middle columns that do not fit in the width, around a "…" column', () => {
    const wide = new FrameTable(
      Array.from({ length: 12 }, (_, c) => [`metric_${c}`, { kind: 'float' as const, values: Float64Array.of(c, c + 0.5) }] as const),
      2,
      { source: 'wide', notes: [] },
    );
    const text = wide.toString({ width: 40 });
    // The first, the last, the second: the next would pass 40 characters.
    expect(text.split('\n').slice(0, 3)).toEqual(['wide: 2 rows × 12 columns (3 shown)', 'metric_0  metric_1  …  metric_11', '   float     float  …      float']);
    expect(Math.max(...text.split('\n').slice(1).map((l) => l.length))).toBeLessThanOrEqual(40);
    expect(wide.toString({ columns: 2 }).split('\n')[1]).toBe('metric_0  …  metric_11');
  });

  it('prints to standard output or to `write`, and is what console.log shows', () => {
    let written = '';
    brands.print({ write: (text) => (written += text), rows: 2 });
    expect(written).toBe(`${brands.toString({ rows: 2 })}\n`);
    expect(inspect(brands)).toBe(brands.toString());
    expect(String(brands.head(1))).toBe(brands.head(1).toString());
  });

  it('shows empty tables and tables without columns', () => {
    expect(brands.head(0).toString().split('\n')).toEqual([
      'toTable: 0 rows × 6 columns',
      'brand   market  year  esteem_rank  is_duplicate  released_at',
      'string  string   int        float  bool          date',
      '──────  ──────  ────  ───────────  ────────────  ───────────',
    ]);
    expect(brands.select([]).toString()).toBe('toTable: 3 rows × 0 columns');
  });
});

describe('toHtml() and display(table)', () => {
  it('gives an escaped, styled HTML table with kinds, right-aligned numbers and missing values marked', () => {
    const html = brands.toHtml();
    expect(html.startsWith('<div class="bk-table"><style>')).toBe(true);
    expect(html).toContain('<caption>toTable: 3 rows × 6 columns</caption>');
    expect(html).toContain('<th class="num">esteem_rank<span class="kind">float</span></th>');
    expect(html).toContain(
      '<tr><td>Procter &amp; Gamble, Inc.</td><td>DE</td><td class="num">2023</td><td class="null num">null</td><td>true</td><td class="null">null</td></tr>',
    );
    expect(html).toContain('<td>Aldo &quot;Shoes&quot;</td>');
  });

  it('escapes every text, keeps the whole of a cut value in its tooltip, and shows head, tail and hidden columns', () => {
    const t = new FrameTable(
      [
        ['<b>name</b>', textColumn(30, (i) => (i === 0 ? '<script>alert("x")</script> & a long tail of text' : `r${i}`))],
        ...Array.from({ length: 25 }, (_, c) => [`c${c}`, { kind: 'int' as const, values: Int32Array.from({ length: 30 }, (_, i) => i * c) }] as const),
      ],
      30,
      { source: '<source>', notes: [] },
    );
    const html = t.toHtml({ rows: 4, columnWidth: 20 });
    expect(html).not.toMatch(/<script>|<b>/);
    expect(html).toContain('<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; a long tail of text">&lt;script&gt;alert(&quot;x&quot;)&lt;…</td>');
    expect(html).toContain('<caption>&lt;source&gt;: 30 rows × 26 columns (20 shown)</caption>');
    expect(html).toContain('<tr class="more"><td colspan="21">… 26 more rows</td></tr>');
    expect(html.match(/<tr>/g)).toHaveLength(1 + 4);
    expect(html).toContain('<th>…</th>');
  });

  it('display(table) emits one output with text/html and text/plain', async () => {
    const bundles: MimeBundle[] = [];
    await display(brands.where({ year: 2024 }), { write: (bundle) => bundles.push(bundle), rows: 5 });
    expect(bundles).toHaveLength(1);
    expect(Object.keys(bundles[0]!.data)).toEqual(['text/html', 'text/plain']);
    expect(bundles[0]!.data['text/plain']).toBe(brands.where({ year: 2024 }).toString({ rows: 5 }));
    expect(bundles[0]).toEqual(tableMimeBundle(brands.where({ year: 2024 }), { rows: 5 }));
  });
});

describe('describe()', () => {
  it('summarises numbers (count, missing, mean, sd, min, quartiles, max) and text, booleans and dates (distinct, top, its count)', () => {
    const summary = brands.describe();
    expect(summary.meta.source).toBe('describe');
    expect(summary.columns).toEqual(['column', 'kind', 'count', 'missing', 'mean', 'std', 'min', 'q1', 'median', 'q3', 'max', 'distinct', 'top', 'top_count']);
    const none = { mean: null, std: null, min: null, q1: null, median: null, q3: null, max: null };
    const noText = { distinct: null, top: null, top_count: null };
    expect(summary.rows()).toEqual([
      { column: 'brand', kind: 'string', count: 3, missing: 0, ...none, distinct: 3, top: 'Veros', top_count: 1 },
      { column: 'market', kind: 'string', count: 2, missing: 1, ...none, distinct: 2, top: 'GB', top_count: 1 },
      { column: 'year', kind: 'int', count: 3, missing: 0, mean: 6071 / 3, std: expect.closeTo(Math.sqrt(1 / 3), 12), min: 2023, q1: 2023.5, median: 2024, q3: 2024, max: 2024, ...noText },
      // 8 and 71.25: the mean 39.625, each 31.625 from it; quartiles by linear interpolation (pandas' default).
      { column: 'esteem_rank', kind: 'float', count: 2, missing: 1, mean: 39.625, std: expect.closeTo(31.625 * Math.SQRT2, 12), min: 8, q1: 23.8125, median: 39.625, q3: 55.4375, max: 71.25, ...noText },
      { column: 'is_duplicate', kind: 'bool', count: 2, missing: 1, ...none, distinct: 2, top: 'false', top_count: 1 },
      { column: 'released_at', kind: 'date', count: 2, missing: 1, ...none, distinct: 2, top: '2024-03-01T00:00:00.000Z', top_count: 1 },
    ]);
  });

  it('takes the most frequent value (ties: the first met), and leaves the statistics of an empty column missing', () => {
    const t = toTable([
      { s: 'b', v: null },
      { s: 'a', v: null },
      { s: 'a', v: null },
      { s: 'b', v: null },
      { s: 'c', v: null },
    ]);
    const [s, v] = t.describe().rows();
    expect(s).toMatchObject({ count: 5, distinct: 3, top: 'b', top_count: 2 });
    expect(v).toMatchObject({ kind: 'float', count: 0, missing: 5, mean: null, std: null, min: null, median: null, max: null });
  });
});

describe('toCsv() and writeCsv()', () => {
  let dir: string;
  let duck: DuckDBConnection;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bsk-csv-'));
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(async () => {
    duck?.closeSync();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes RFC 4180: a header, CRLF, quotes where needed (doubled inside), missing values empty', () => {
    expect(brands.toCsv()).toBe(
      'brand,market,year,esteem_rank,is_duplicate,released_at\r\n' +
        'Veros,GB,2024,71.25,false,2024-03-01T00:00:00.000Z\r\n' +
        '"Procter & Gamble, Inc.",DE,2023,,true,\r\n' +
        '"Aldo ""Shoes""",,2024,8,,2023-01-15T00:00:00.000Z\r\n',
    );
    expect(brands.head(0).toCsv()).toBe('brand,market,year,esteem_rank,is_duplicate,released_at\r\n');
  });

  /** Hard cases: every number's exact text, every character CSV must quote, empty text against missing. */
  const numbers = [0.1 + 0.2, 1e-7, 1e21, -0, 5e-324, Number.MAX_VALUE, 2 ** 53, -123456.789, 71.25, Number.NaN];
  const texts = ['plain', 'a, b', 'say "hi"', 'two\nlines', 'cr\ronly', 'crlf\r\nend', '', ' padded ', 'Müller 日本 ✓', null];
  const hard = new FrameTable(
    [
      ['n', { kind: 'float', values: Float64Array.from(numbers) }],
      ['text, "quoted"', textColumn(texts.length, (i) => texts[i]!)],
      ['i', { kind: 'int', values: Int32Array.from(numbers, (_, i) => (i === 3 ? -2147483648 : i * 1000 - 4000)) }],
    ],
    numbers.length,
    { source: 'hard', notes: [] },
  );

  it('reads back in Python’s csv module: the same texts, numbers at full precision, empty text apart from missing', async () => {
    const path = join(dir, 'hard.csv');
    await writeCsv(hard, path);
    expect(await readFile(path, 'utf8')).toBe(hard.toCsv());
    const python = '/usr/bin/python3';
    if (!existsSync(python)) {
      if (process.env['CI'] === 'true') throw new Error('CI must have /usr/bin/python3 (Debian python3).');
      return;
    }
    // Python reads the fields; "" and an empty field both read as '', so it also reports, from the
    // raw text, which fields were quoted.
    const script = [
      'import csv, json, sys',
      "rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))",
      "print(json.dumps({'header': rows[0], 'n': [None if r[0] == '' else float(r[0]) for r in rows[1:]], 'text': [r[1] for r in rows[1:]], 'i': [r[2] for r in rows[1:]]}))",
    ].join('\n');
    const { stdout } = await promisify(execFile)(python, ['-c', script, path]);
    const back = JSON.parse(stdout) as { header: string[]; n: (number | null)[]; text: string[]; i: string[] };
    expect(back.header).toEqual(['n', 'text, "quoted"', 'i']);
    // json.dumps writes the shortest text that reads back as the same double: exact comparison.
    // -0 too: its sign is written ('-0').
    expect(back.n).toEqual(numbers.map((v) => (Number.isNaN(v) ? null : v)));
    expect(Object.is(back.n[3], -0)).toBe(true);
    expect(back.text).toEqual(texts.map((t) => t ?? ''));
    expect(back.i).toEqual(['-4000', '-3000', '-2000', '', '0', '1000', '2000', '3000', '4000', '5000']);
  });

  it('reads back in DuckDB with its types: doubles exact, text with every quoted character, "" as empty text and empty fields as NULL', async () => {
    const path = join(dir, 'duck.csv');
    await writeCsv(hard, path);
    const quoted = `'${path.replaceAll("'", "''")}'`;
    const types = (await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_csv(${quoted}, header = true, allow_quoted_nulls = false)`)).getRowObjectsJson();
    expect(types.map((r) => [r.column_name, r.column_type])).toEqual([
      ['n', 'DOUBLE'],
      ['text, "quoted"', 'VARCHAR'],
      ['i', 'BIGINT'],
    ]);
    const rows = (await duck.runAndReadAll(`SELECT n, "text, ""quoted""" AS text, i FROM read_csv(${quoted}, header = true, allow_quoted_nulls = false)`)).getRowObjectsJS();
    expect(rows.map((r) => r.n)).toEqual(numbers.map((v) => (Number.isNaN(v) ? null : v)));
    expect(rows.map((r) => r.text)).toEqual(texts);
    expect(rows.map((r) => (r.i === null ? null : Number(r.i)))).toEqual([-4000, -3000, -2000, null, 0, 1000, 2000, 3000, 4000, 5000]);
  });

  it('streams a large lazy table to a file, replacing the previous one atomically', async () => {
    const path = join(dir, 'large.csv');
    await writeFile(path, 'previous');
    const lazy = long(60_000).where({ id: { gt: 10 } }).sortBy({ column: 'id', descending: true });
    await writeCsv(lazy, path);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(lazy.toCsv());
    expect(text.split('\r\n')[1]).toBe('60000,19999.666666666668,Brand 60000');
    expect(text.split('\r\n')).toHaveLength(1 + 59_990 + 1);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('says which path could not be written, and leaves nothing behind', async () => {
    const path = join(dir, 'missing-folder', 'out.csv');
    const attempt = writeCsv(brands, path);
    await expect(attempt).rejects.toThrow(OutputError);
    await expect(writeCsv(brands, path)).rejects.toThrow(path);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });
});
