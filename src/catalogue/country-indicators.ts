/**
 * A country's indicators (§11.12's sub-resources, in the collections only):
 * `GET /countries/{id}/indicators` and `GET /countries/{id}/indicators/{yearId}` (`yearId` a year
 * system id). The service documents no response. The emulator's choice: the first is a list paged
 * like every list, one record per year; the second the record of one year, `{"data": {...}}`; no
 * parameters but paging. The client checks the envelopes and leaves the records' values `unknown`.
 */
export const COUNTRY_INDICATORS = {
  path: (countryId: number) => `countries/${countryId}/indicators`,
  itemPath: (countryId: number, yearId: number) => `countries/${countryId}/indicators/${yearId}`,
  scope: 'Countries: Read',
  params: { page: 'int', per_page: 'int' },
} as const;
