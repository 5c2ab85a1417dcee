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

/**
 * Best Countries raw respondent data (§13.3, in the collections only):
 * `GET /best-countries/countries/raw/{year}`. The service documents no response; the collection
 * suggests `sort=country.name`, so a record names the country it is about in a `country` object.
 * The emulator's choice: a list paged like every list (`page`, `per_page`, the list envelope), one
 * record per respondent and country rated, filtered by the plain parameters of the calculated data.
 * The client checks the envelope and leaves the records' values `unknown`.
 */
export const BEST_COUNTRIES_RAW = {
  path: (year: number) => `best-countries/countries/raw/${year}`,
  scope: 'Best Countries: Read',
  params: { country_codes: 'codes', countries: 'ids', sort: 'sort', page: 'int', per_page: 'int' },
  /** Sort keys inside the rated country's object, besides the record's own scalar fields. */
  nestedSortKeys: ['country.id', 'country.name', 'country.code'],
} as const;
