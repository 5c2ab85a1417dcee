// The brandscape page writer copies pre-encoded text instead of serialising objects; these tests
// hold its output to what the dataset holds and to what JSON.stringify would write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, createEmulator, type Dataset, type Emulator } from '../../src/emulator/index.js';
import { call } from '../helpers/http.js';

const SEED = 5;

describe('brandscape page writer', () => {
  let emulator: Emulator;
  let ds: Dataset;
  let studyId: number;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, seed: SEED, rateLimit: 0 });
    ds = createDataset({ seed: SEED });
    studyId = ds.brandscape.studyIds()[3] as number;
  });
  afterAll(() => emulator.close());

  /** A page's raw text, and the same page as JSON.stringify writes it. */
  const page = async (query: string) => {
    const answer = await call(emulator, `/api/v2/brandscape-data?filter[studies]=${studyId}&${query}`);
    expect(answer.status).toBe(200);
    return { text: answer.text, parsed: JSON.parse(answer.text) as { data: Record<string, unknown>[] } };
  };

  it('writes compact JSON, byte for byte what JSON.stringify gives for the same page', async () => {
    for (const query of [
      'filter[audiences]=2&per_page=300&metric_group_keys=pillars,imagery',
      'filter[audiences]=1&per_page=50&metric_keys=usage,preference&include=brand,category',
      // No metadata at all: the first metric key opens each row.
      'filter[audiences]=3&per_page=40&fields[brandscape_data]=relevance_c,knowledge_rank',
      // Only includes: the first included object opens each row.
      'filter[audiences]=1&per_page=10&fields[brandscape_data]=&include=study',
      // Metadata in another order than the canonical one, a row field first.
      'filter[audiences]=1&per_page=30&fields[brandscape_data]=brand_name,is_duplicate,id,audience_id&metric_keys=esteem',
    ]) {
      const { text, parsed } = await page(query);
      expect(text, query).toBe(JSON.stringify(parsed));
    }
  });

  it('serves the values the dataset holds, per brand and per row (category-specific columns)', async () => {
    const rows = ds.brandscape.rowsOf(studyId);
    const audienceId = rows.audienceIds[1] ?? 1;
    const names = ['differentiation_c', 'differentiation_rank', 'differentiation_category_index', 'innovative_pct', 'usage_pct', 'usage_category_index', 'brand_base'];
    const columns = names.map((name) => ds.brandscape.columns.find((c) => c.name === name));
    expect(columns.every(Boolean)).toBe(true);
    const values = ds.brandscape.values(studyId, audienceId, columns.map((c) => c?.index ?? -1));
    const { parsed } = await page(`filter[audiences]=${audienceId}&per_page=1000&fields[brandscape_data]=${names.join(',')}`);
    expect(parsed.data.length).toBe(rows.length);
    parsed.data.forEach((row, i) => {
      names.forEach((name, c) => {
        const v = values[c]?.[i] ?? Number.NaN;
        expect(row[name], `${name} of row ${i}`).toBe(v === v ? v : null);
      });
    });
    // Rows of one brand in several categories share brand-level values but not category ones.
    const brandRows = new Map<number, number[]>();
    for (let i = 0; i < rows.length; i++) brandRows.set(rows.brandIds[i] ?? 0, [...(brandRows.get(rows.brandIds[i] ?? 0) ?? []), i]);
    const multi = [...brandRows.values()].filter((r) => r.length > 1);
    expect(multi.length).toBeGreaterThan(0);
    const pairs = multi.map((r) => [r[0] ?? 0, r[1] ?? 0] as const);
    for (const [a, b] of pairs) expect(parsed.data[a]?.['differentiation_c']).toBe(parsed.data[b]?.['differentiation_c']);
    expect(pairs.some(([a, b]) => parsed.data[a]?.['usage_pct'] !== parsed.data[b]?.['usage_pct'])).toBe(true);
  });

  it('gives the same page whatever was served before it (caches and reused buffers leave no trace)', async () => {
    const query = 'filter[audiences]=1&per_page=200&page=2&metric_group_keys=pillars,imagery,archetypes';
    const first = (await page(query)).text;
    // Fill the caches and the buffer pool with other studies' pages, then ask again.
    for (const other of ds.brandscape.studyIds().slice(10, 40)) {
      await call(emulator, `/api/v2/brandscape-data?filter[studies]=${other}&per_page=1000&metric_group_keys=pillars,imagery`);
    }
    expect((await page(query)).text).toBe(first);
    // And a fresh emulator with the same seed writes the same bytes.
    const again = await createEmulator({ port: 0, seed: SEED, rateLimit: 0 });
    try {
      const answer = await call(again, `/api/v2/brandscape-data?filter[studies]=${studyId}&${query}`);
      expect(answer.text.replaceAll(again.url, '')).toBe(first.replaceAll(emulator.url, ''));
    } finally {
      await again.close();
    }
  });
});
