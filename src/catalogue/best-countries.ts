/**
 * Best Countries calculated country data (§13.2): `GET /best-countries/countries/{year}/{dataType}/{scoreType}`.
 * Filters are plain query parameters, not `filter[...]`; the answer is a flat record per country,
 * which the emulator wraps in `{"data": [...]}` without paging (its choice: v1 wrapped Best
 * Countries answers in `data`; the v2 wrapping is undocumented).
 */
export const BEST_COUNTRIES_DATA = {
  path: (year: number, dataType: string, scoreType: string) => `best-countries/countries/${year}/${dataType}/${scoreType}`,
  scope: 'Best Countries: Read',
  params: { country_codes: 'codes', countries: 'ids', sort: 'sort' },
  dataTypes: ['attributes', 'factors'],
  /** `percent` exists only for consideration attributes (the Swagger enum lists only the other two). */
  scoreTypes: ['scores', 'ranks', 'percent'],
  /** The first year the Swagger file allows. */
  firstYear: 2022,
} as const;
