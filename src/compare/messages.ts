/**
 * What a comparison says when it cannot be made: every usage error of `compareBrands`, in one place.
 * Options are named through the reader's namer (`o`), so a notebook reads `markets: ['GB', 'DE',
 * 'FR']`, the command line `--markets GB,DE,FR` and an MCP tool's caller `markets ["GB","DE","FR"]`:
 * the library never spells a flag.
 */
import { UsageError, type OptionNamer } from '../errors.js';
import { listText } from '../frames/list-text.js';

type O = OptionNamer;
const MARKETS_EXAMPLE = ['GB', 'DE', 'FR'];
const YEARS_EXAMPLE = [2021, 2022, 2023, 2024];

export const COMPARE_ERRORS = {
  noBrands: () => new UsageError('No brand to compare.', { hint: (o: O) => `Give brands by id or name, e.g. ${o({ option: 'brands', value: ['Veros', 'Polora'] })}.` }),
  emptyMarkets: () =>
    new UsageError('The list of markets is empty.', {
      hint: (o: O) => `Give market codes, e.g. ${o({ option: 'markets', value: MARKETS_EXAMPLE })}, or leave them out for every market where the brands are studied.`,
    }),
  unknownFocus: (focus: string | number, brands: readonly string[]) =>
    new UsageError((o) => `${o({ option: 'focus', value: String(focus) })} is not one of the brands compared (${listText(brands)}); the focus is one of them.`, {
      hint: (o) => `Name one of them, e.g. ${o({ option: 'focus', value: brands[0] ?? 'Veros' })}, or add it to ${o({ option: 'brands' })}.`,
    }),
  badAudience: (audience: number) => new UsageError(`The audience is an id (a positive whole number), not ${audience}.`, { hint: '1 is All Adults.' }),

  // The axis (`by`), inferred or given.
  byMarketWithYears: (years: number) =>
    new UsageError((o) => `${o({ option: 'by', value: 'market' })} compares markets in one year, but ${years} years were given.`, {
      hint: (o) => `Give one year (${o({ option: 'years', value: [2024] })}), or use ${o({ option: 'by', value: 'year' })} to follow each market over the years.`,
    }),
  byMarketWithOneMarket: () =>
    new UsageError((o) => `${o({ option: 'by', value: 'market' })} compares several markets, but one was given.`, {
      hint: (o) => `Add markets (${o({ option: 'markets', value: MARKETS_EXAMPLE })}), or use ${o({ option: 'by', value: 'year' })} to follow this market over the years.`,
    }),
  byMarketWithWaves: () =>
    new UsageError((o) => `${o({ option: 'waves', value: true })} applies to comparisons across years (${o({ option: 'by', value: 'year' })}): a cross-market comparison uses full-year studies.`),
  byYearWithOneYear: () =>
    new UsageError((o) => `${o({ option: 'by', value: 'year' })} compares several years, but one was given.`, {
      hint: (o) => `Give several (${o({ option: 'years', value: YEARS_EXAMPLE })}), or leave ${o({ option: 'years' })} out for the last five years.`,
    }),
  oneMarketOneYear: () =>
    new UsageError('One market and one year leave nothing to compare across.', {
      hint: (o) => `Add markets (${o({ option: 'markets', value: MARKETS_EXAMPLE })}) to compare across markets, or years (${o({ option: 'years', value: YEARS_EXAMPLE })}) to follow the market over time.`,
    }),
  severalOfEach: (markets: number, years: number) =>
    new UsageError(`Both several markets (${markets}) and several years (${years}) were given, so the comparison's axis is not clear.`, {
      hint: (o) => `Add ${o({ option: 'by', value: 'year' })} to follow each market over the years, or give one year to compare the markets.`,
    }),

  // Metrics, groups and score types, checked against the metric catalogue.
  notAMetric: (text: string, hint: string) =>
    new UsageError(`'${text}' is not a metric: give a metric key (differentiation), an exact column (esteem_c) or a metric's name.`, { hint }),
  notAGroup: (group: string, groups: string) => new UsageError(`'${group}' is not a metric group.`, { hint: `Groups: ${groups}.` }),
  mixedScoreTypes: (columns: readonly string[], types: readonly string[]) =>
    new UsageError(`The columns ${listText(columns)} are of different score types (${types.join(', ')}), whose values are on different scales.`, {
      hint: 'Compare one score type at a time (run compare once per score type).',
    }),
  scoreTypeMismatch: (scoreType: string, columns: readonly string[], columnType: string, instead: readonly string[]) => {
    const s = columns.length > 1 ? 's' : '';
    return new UsageError((o) => `${o({ option: 'scoreType', value: scoreType })} does not fit the column${s} ${listText(columns)} (${columnType}).`, {
      hint: (o) => `Name the ${scoreType} column${s} instead (${instead.join(', ')}), or leave ${o({ option: 'scoreType' })} out.`,
    });
  },
  missingScoreType: (text: string) =>
    new UsageError(`${text}.`, { hint: (o) => `Choose one of those with ${o({ option: 'scoreType' })}, or name the column in ${o({ option: 'metrics' })}.` }),

  // What the service has.
  noAudience: (audience: number) => new UsageError(`There is no audience ${audience}.`, { hint: "List them with 'brandscape audiences' (1 is All Adults)." }),
  unknownMarkets: (unknown: readonly string[], hint: string) => new UsageError(`No released study for ${unknown.length > 1 ? 'markets' : 'market'} ${unknown.join(', ')}.`, { hint }),
  brandsInNoStudy: (names: readonly string[]) => new UsageError(`${listText(names)} ${names.length > 1 ? 'are' : 'is'} in no released study.`),
  noFullYearStudy: (markets: readonly string[]) =>
    new UsageError(`No released full-year study in ${markets.join(', ')}.`, { hint: (o) => `Check the market codes, or add ${o({ option: 'waves', value: true })} to compare quarterly waves.` }),
  noStudyInYears: (markets: readonly string[], years: readonly number[], have: readonly number[]) =>
    new UsageError(`No released full-year study of ${listText(markets)} in ${listText(years.map(String))}.`, {
      hint: have.length > 0 ? `Years with studies: ${have[0]}–${have[have.length - 1]}.` : 'Check the market codes.',
    }),
  noData: (brands: readonly string[], where: string, audience: number, marketsGiven: boolean) =>
    new UsageError(`${listText(brands)} ${brands.length > 1 ? 'have' : 'has'} no data in ${where} (audience ${audience}).`, {
      hint: marketsGiven ? (o) => `Leave ${o({ option: 'markets' })} out to compare every market where the brands are studied.` : `Check the audience (${audience}); 1 is All Adults.`,
    }),
} as const;
