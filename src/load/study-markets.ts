/**
 * The market code and calendar year of brandscape rows, from their studies: brandscape records
 * carry `country_id` and `year_id` (ids), but every comparison and every file a reader opens
 * needs `country_code` and `year` (docs/columns.md). No frames here: `fetch` reads this without
 * loading the table engine.
 */

/** The studies fetcher this needs: any client's `studies`. */
export interface StudiesOf {
  studies: {
    all(
      params: { filter: { id: number[] }; include: ['country', 'year'] },
      options?: { signal?: AbortSignal },
    ): Promise<readonly { id: number; country?: { code?: string | null } | null; year?: { year?: string | number | null } | null }[]>;
  };
}

/** A study's market and calendar year (null when the service does not say). */
export interface StudyMarket {
  code: string | null;
  year: number | null;
}

/**
 * The market code and calendar year of each study id, a request per 100 studies.
 *
 * @example
 * const markets = await loadStudyMarkets(client, [12, 13]);
 * markets.get(12); // { code: 'GB', year: 2024 }
 */
export async function loadStudyMarkets(client: StudiesOf, ids: Iterable<number>, signal?: AbortSignal): Promise<Map<number, StudyMarket>> {
  const wanted = [...new Set(ids)];
  const out = new Map<number, StudyMarket>();
  for (let i = 0; i < wanted.length; i += 100) {
    const studies = await client.studies.all({ filter: { id: wanted.slice(i, i + 100) }, include: ['country', 'year'] }, signal ? { signal } : {});
    for (const s of studies) {
      const year = Number(s.year?.year);
      out.set(s.id, { code: s.country?.code ?? null, year: Number.isInteger(year) ? year : null });
    }
  }
  return out;
}
