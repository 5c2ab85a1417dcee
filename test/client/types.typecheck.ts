/**
 * Type-level tests of the client's parameters, compiled by `npm run typecheck` (never run).
 * Each `@ts-expect-error` must stay an error: if a misuse became accepted, the check fails.
 */
import type { BrandscapeClient } from '../../src/client/brandscape-client.js';

declare const client: BrandscapeClient;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => undefined;

export async function searchIsOnlyOnSearchableResources() {
  await client.brands.all({ search: 'apple' });
  await client.countries.page({ search: 'united' });
  // @ts-expect-error cities do not support search (§7.7)
  await client.cities.all({ search: 'paris' });
  // @ts-expect-error brand metrics do not support search
  await client.brandMetrics.page({ search: 'esteem' });
}

export async function filtersAreTypedPerResource() {
  await client.brands.all({ filter: { country_codes: ['GB', 'FR'], year_numbers: 2024, is_core: true, name: 'nova' } });
  await client.studies.all({ filter: { full_year: true, countries: [48], updated_since: new Date() } });
  // @ts-expect-error brands have no `colour` filter
  await client.brands.all({ filter: { colour: 'red' } });
  // @ts-expect-error a flag filter takes a boolean
  await client.studies.all({ filter: { full_year: 'yes' } });
  // @ts-expect-error logo_url is not filterable (§11.3)
  await client.brands.all({ filter: { logo_url: 'x' } });
}

export async function includesAddTypedObjects() {
  const brands = await client.brands.all({ include: ['sector', 'studies'] });
  const first = brands[0];
  if (first) {
    const sectorName: string | null | undefined = first.sector?.name;
    const studyIds: number[] = first.studies.map((s) => s.id);
    void sectorName;
    void studyIds;
  }
  const plain = await client.brands.all();
  // @ts-expect-error without include the sector is not part of the type
  void plain[0]?.sector;
  // @ts-expect-error `colour` is not an include of brands
  await client.brands.all({ include: ['colour'] });
  const groups = await client.brandMetricGroups.all({ include: ['metric'] });
  // The documented alias `metric` arrives under `metrics`.
  void groups[0]?.metrics.length;
}

export async function fieldsNarrowTheRecord() {
  const rows = await client.brands.all({ fields: ['id', 'name'] });
  assert<Equal<keyof NonNullable<(typeof rows)[0]>, 'id' | 'name'>>(true);
  void rows;
  // @ts-expect-error brandscape_data_columns is not selectable (§11.4)
  await client.brandMetrics.all({ fields: ['brandscape_data_columns'] });
}

export async function sortKeysAreSortableFields() {
  await client.brands.all({ sort: ['-is_core', 'name'] });
  // @ts-expect-error url is not sortable
  await client.brands.all({ sort: 'url' });
}

export async function brandscapeRowsAreTyped() {
  const rows = await client.brandscape.all({
    filter: { country_code: 'GB', year_number: 2024, audiences: 1 },
    metricGroupKeys: ['pillars'],
    include: ['brand', 'sector'],
  });
  const row = rows[0];
  if (row) {
    const local: string | null = row.brand_name;
    const global: string | null | undefined = row.brand?.name;
    // A metric column the query did not select is absent: with noUncheckedIndexedAccess the
    // column type says so (`undefined`), next to `null` for "no value for this brand".
    const rank: number | null | undefined = row.differentiation_rank;
    // @ts-expect-error metric columns are numbers, not text
    const text: string | null | undefined = row.esteem_rank;
    void text;
    void local;
    void global;
    void rank;
    // @ts-expect-error the company was not included
    void row.company;
  }
  // @ts-expect-error brandscape data needs a filter object
  await client.brandscape.all({ metricKeys: ['esteem'] });
}

export async function archetypeComparisonsAreADiscriminatedUnion() {
  await client.archetypes({ studies: 1, comparison: 'cultural' });
  await client.archetypes({ studies: [1], brands: [2, 3], comparison: 'competitive', collections: 4 });
  await client.archetypes({ studies: [1], comparison: 'competitive', categories: [5] });
  // @ts-expect-error competitive needs a collection or a category
  await client.archetypes({ studies: [1], comparison: 'competitive' });
  // @ts-expect-error not both
  await client.archetypes({ studies: [1], comparison: 'competitive', collections: 1, categories: 2 });
}

export async function resourceByPathTakesTextParameters() {
  // What a command line gives: text, checked against the catalogue at run time.
  const filter: Record<string, string> = { name: 'nova' };
  const include: string[] = ['sector'];
  const rows = await client.resource('brands').all({ filter, include, sort: ['-name'], search: 'nova' });
  const name: unknown = rows[0]?.['name'];
  void name;
  await client.resource('studies/12/brands').page({ include: ['brand'], perPage: 10 });
  // @ts-expect-error brandscape data has its own fetcher (client.brandscape)
  client.resource('brandscape-data');
  // @ts-expect-error a study id is a number
  client.resource('studies/x/brands');
}

