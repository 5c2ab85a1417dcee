/**
 * `brandscape fetch best-countries/countries/<year>/<attributes|factors>/<scores|ranks|percent>`:
 * Best Countries calculated data (§13.2), one record per country, filtered with the plain
 * parameters `country_codes` and `countries`. Not paginated, so no paging options apply.
 */
import { UsageError, type BestCountriesQuery } from '../../client/index.js';
import { checkOutputPath } from '../../io/output-path.js';
import { EXIT, type CommandIo } from '../io.js';
import { RECORD_EXTENSIONS, createRecordSink, toOutputFormat } from '../output.js';
import { openService } from '../service.js';

const PATH = /^best-countries\/countries\/(\d{4})\/([a-z]+)\/([a-z]+)$/;

/** The query a path names, or undefined when it is not a Best Countries data path. */
export function fromBestCountriesPath(path: string): Pick<BestCountriesQuery, 'year' | 'dataType' | 'scoreType'> | undefined {
  if (!path.startsWith('best-countries/countries/')) return undefined;
  const m = PATH.exec(path);
  if (!m) throw new UsageError(`'${path}' is not a Best Countries data path.`, { hint: 'Use best-countries/countries/<year>/<attributes|factors>/<scores|ranks|percent>, e.g. best-countries/countries/2024/factors/ranks.' });
  return { year: Number(m[1]), dataType: m[2] as BestCountriesQuery['dataType'], scoreType: m[3] as BestCountriesQuery['scoreType'] };
}

const PAGED_OPTIONS = ['search', 'include', 'fields', 'metric-keys', 'metric-group-keys', 'per-page', 'max-pages', 'concurrency'] as const;

export async function fetchBestCountries(
  target: Pick<BestCountriesQuery, 'year' | 'dataType' | 'scoreType'>,
  values: Readonly<Record<string, string | boolean | string[] | undefined>>,
  io: CommandIo,
): Promise<number> {
  const given = PAGED_OPTIONS.find((o) => values[o] !== undefined);
  if (given) throw new UsageError(`--${given} does not apply to Best Countries data (one unpaginated list).`, { hint: 'Use --filter country_codes=US,GB, --filter countries=<ids> and --sort.' });
  const query: BestCountriesQuery = { ...target };
  for (const pair of (values['filter'] as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, Math.max(eq, 0)).trim();
    const value = pair.slice(eq + 1).split(',').map((v) => v.trim()).filter((v) => v !== '');
    if (key === 'country_codes') query.countryCodes = value;
    else if (key === 'countries') {
      if (value.some((v) => !/^\d+$/.test(v))) throw new UsageError(`--filter countries takes integer ids, got '${pair}'.`);
      query.countries = value.map(Number);
    } else throw new UsageError(`'${eq <= 0 ? pair : key}' is not a filter of Best Countries data.`, { hint: 'Filters: country_codes, countries.' });
  }
  const sort = values['sort'];
  if (typeof sort === 'string') query.sort = sort.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const out = typeof values['out'] === 'string' ? values['out'] : undefined;
  const formatFlag = typeof values['format'] === 'string' ? values['format'] : undefined;
  if (out !== undefined) await checkOutputPath(out, { option: '--out', ...(formatFlag === undefined ? { extensions: Object.keys(RECORD_EXTENSIONS) } : {}) });
  const format = toOutputFormat(formatFlag, out);
  const service = await openService(io, values);
  try {
    const records = await service.client.bestCountries.countries(query, { signal: io.signal });
    const sink = createRecordSink(format, out ? { file: out } : { stdout: io.stdout });
    try {
      await sink.write(records);
      await sink.close();
    } catch (error) {
      await sink.abort();
      throw error;
    }
    io.stderr.write(`Fetched ${records.length} Best Countries records (${target.year}, ${target.dataType}, ${target.scoreType})${out ? ` into ${out}` : ''}.\n`);
  } finally {
    await service.close();
  }
  return EXIT.ok;
}
