/**
 * `brandscape fetch <resource>`: every record of a resource, fully paginated, as JSON, NDJSON or
 * CSV on stdout or in a file.
 */
import {
  LoadError,
  UsageError,
  type BrandscapeParams,
  type FetchAllOptions,
  type IncludeSpec,
  type LoadProgress,
  type ResourceName,
  type ResourcePath,
} from '../../client/index.js';
import { RESOURCES, type FieldCaps } from '../../catalogue/endpoints.js';
import { loadStudyMarkets, type StudiesOf, type StudyMarket } from '../../load/study-markets.js';
import { resolve } from 'node:path';
import { checkOutputPath } from '../../io/output-path.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { RECORD_EXTENSIONS, createParquetSink, createRecordSink, toOutputFormat } from '../output.js';
import { counted, createProgressBar } from '../progress.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

type Row = Record<string, unknown>;

/**
 * Adds `country_code` (after `country_id`) and `year` (after `year_id`) to brandscape rows, from
 * their studies, asked for once per study as new ones appear in the pages (one small request per
 * page that brings new studies). A column an include already brings (`--include country`, `year`
 * or `study`) is not added twice.
 */
function createMarketColumns(client: StudiesOf, include: readonly string[], signal: AbortSignal): { add(rows: Row[]): Promise<Row[]> } {
  const withCode = !include.includes('country') && !include.includes('study');
  const withYear = !include.includes('year') && !include.includes('study');
  const known = new Map<number, StudyMarket>();
  return {
    async add(rows) {
      if (!withCode && !withYear) return rows;
      const wanted = [...new Set(rows.map((r) => r['study_id']).filter((id): id is number => typeof id === 'number' && !known.has(id)))];
      for (const [id, market] of await loadStudyMarkets(client, wanted, signal)) known.set(id, market);
      return rows.map((row) => {
        const study = known.get(row['study_id'] as number);
        const out: Row = {};
        for (const [key, value] of Object.entries(row)) {
          out[key] = value;
          if (key === 'country_id' && withCode) out['country_code'] = study?.code ?? null;
          if (key === 'year_id' && withYear) out['year'] = study?.year ?? null;
        }
        return out;
      });
    },
  };
}

const resourceList = () =>
  Object.values(RESOURCES)
    .map((r) => r.path)
    .filter((p) => !p.includes('{id}'))
    .join(', ');

/** Text wrapped at 100 columns, for --help. */
const wrap = (text: string) => text.replace(/(.{1,98})(?:, |$)/g, (line, body: string) => `${body}${line.endsWith(', ') ? ',' : ''}\n`).trimEnd();

export const fetchHelp = `Usage: brandscape fetch <resource> [options]

Fetches every record of a resource of the Brand Data Service (all pages, concurrently, within the
rate limit) and writes them as JSON, NDJSON or CSV. Resources are named as in the service's paths:
${wrap(resourceList())}
(for a study's brands and categories: studies/<id>/brands, studies/<id>/categories; for Best
Countries data: best-countries/countries/<year>/<attributes|factors>/<scores|ranks|percent>, with
--filter country_codes=US,GB or --filter countries=<ids> and --sort).

Options:
  --filter KEY=VALUE      A filter, repeatable; lists are comma-separated (--filter country_codes=GB,FR)
  --search TEXT           Full-text search (resources that support it)
  --include A,B           Related records to embed, e.g. sector,company
  --fields A,B            Only these fields
  --sort A,-B             Sort keys, '-' for descending
  --metric-keys A,B       Brandscape data: only these metrics' columns (e.g. differentiation,esteem)
  --metric-group-keys A,B Brandscape data: every metric of these groups (e.g. pillars,imagery)
  --per-page N            Page size (default: the largest allowed, 1000 in v2)
  --max-pages N           Stop after N pages (the output is then marked incomplete on stderr)
  --concurrency N         Requests in flight (default 8)
  --format F              json (default), ndjson, csv or parquet (also chosen from --out's extension)
  --out FILE              Write to FILE (written whole or not at all) instead of stdout. A .parquet
                          file keeps the column types (ids and years integers, metrics floats, text
                          dictionary-encoded, missing values null) for pandas, polars or DuckDB;
                          included objects become columns as in toTable (sector_name, ...), in
                          CSV too (column names: docs/columns.md)
${SERVICE_HELP}
  -h, --help              Show this help

Brandscape data needs a qualifying filter: studies; or countries/country_code with years/year_number;
or brands/brand_name. Its rows get the market's country_code and the calendar year beside country_id
and year_id (each study is looked up once). Example:
  brandscape fetch brandscape-data --filter country_code=GB --filter year_number=2024 \\
    --filter audiences=1 --metric-group-keys pillars --include brand,sector --out uk-2024.csv

Exit codes: 0 ok, 2 usage error, 3 service error (HTTP, network, incomplete load), 1 other.
`;

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== ''));

/** The resource a path names; `path` is what the client's `resource()` takes (or brandscape data). */
function resolveResource(name: string): { resource: ResourceName; path: ResourcePath | 'brandscape-data' } {
  const sub = /^studies\/(\d+)\/(brands|categories)$/.exec(name);
  if (sub) {
    const id = Number(sub[1]);
    return sub[2] === 'brands' ? { resource: 'study-brands', path: `studies/${id}/brands` } : { resource: 'study-categories', path: `studies/${id}/categories` };
  }
  const entry = (Object.entries(RESOURCES) as [ResourceName, (typeof RESOURCES)[ResourceName]][]).find(([, spec]) => spec.path === name);
  const resource = entry?.[0];
  if (resource === undefined || resource === 'study-brands' || resource === 'study-categories') {
    throw new UsageError(`Unknown resource '${name}'.`, { hint: `Resources: ${resourceList()}, studies/<id>/brands, studies/<id>/categories, best-countries/countries/<year>/<attributes|factors>/<scores|ranks|percent>.` });
  }
  // Every other resource's name is its path.
  return { resource, path: resource };
}

/** Checks filter keys against the catalogue so a typo is a usage error, not a service error. */
function toFilter(resource: ResourceName, pairs: readonly string[]): Record<string, string> {
  const spec = RESOURCES[resource];
  const accepted = new Set([
    ...Object.entries(spec.fields as Readonly<Record<string, FieldCaps>>).filter(([, c]) => c.filter !== 'none').map(([f]) => f),
    ...Object.keys(spec.helpers),
    ...(spec.updatedSince ? ['updated_since'] : []),
  ]);
  const filter: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--filter takes KEY=VALUE, got '${pair}'.`);
    const key = pair.slice(0, eq).trim();
    // Brandscape metric columns are filterable too; the service checks those.
    if (!accepted.has(key) && resource !== 'brandscape-data') {
      throw new UsageError(`'${key}' is not a filter of ${spec.path}.`, { hint: `Filters: ${[...accepted].sort().join(', ')}.` });
    }
    filter[key] = pair.slice(eq + 1);
  }
  return filter;
}

export async function runFetch(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv(
    'fetch',
    argv,
    {
      ...SERVICE_OPTIONS,
      filter: { type: 'string', multiple: true },
      search: { type: 'string' },
      include: { type: 'string' },
      fields: { type: 'string' },
      sort: { type: 'string' },
      'metric-keys': { type: 'string' },
      'metric-group-keys': { type: 'string' },
      'per-page': { type: 'string' },
      'max-pages': { type: 'string' },
      concurrency: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(fetchHelp);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('fetch takes one resource name.', { hint: "Run 'brandscape fetch --help'." });
  if (positionals[0]?.startsWith('best-countries/')) {
    // Loaded only for Best Countries data: a plain fetch loads nothing it does not use.
    const { fetchBestCountries, fromBestCountriesPath } = await import('./fetch-best-countries.js');
    const target = fromBestCountriesPath(positionals[0]);
    if (target) return fetchBestCountries(target, values, io);
  }
  const { resource, path } = resolveResource(positionals[0] ?? '');
  const spec = RESOURCES[resource];
  // Checked before any request: a bad path found after the whole load would waste it.
  // A relative --out is relative to the command's working folder (io.cwd), as every command's is.
  const outPath = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  if (outPath !== undefined) await checkOutputPath(outPath, { option: '--out', shownAs: values.out!, ...(values.format === undefined ? { extensions: Object.keys(RECORD_EXTENSIONS) } : {}) });
  const format = toOutputFormat(values.format, values.out);
  const filter = toFilter(resource, values.filter ?? []);
  const include = list(values.include);
  const unknownInclude = include?.find((i) => !(i in (spec.includes as Readonly<Record<string, IncludeSpec>>)));
  if (unknownInclude) {
    throw new UsageError(`'${unknownInclude}' is not an include of ${spec.path}.`, { hint: `Includes: ${Object.keys(spec.includes).join(', ') || '(none)'}.` });
  }
  if (values.search !== undefined && spec.search === false) throw new UsageError(`${spec.path} does not support --search.`, { hint: 'Use a --filter on a text field instead.' });
  const isBrandscape = resource === 'brandscape-data';
  if (!isBrandscape && (values['metric-keys'] || values['metric-group-keys'])) {
    throw new UsageError('--metric-keys and --metric-group-keys apply to brandscape-data only.');
  }
  const perPage = toNumber('per-page', values['per-page'], { min: 1, integer: true });
  const maxPages = toNumber('max-pages', values['max-pages'], { min: 1, integer: true });
  const concurrency = toNumber('concurrency', values.concurrency, { min: 1, max: 64, integer: true });
  const fields = list(values.fields);
  if (fields && !isBrandscape) {
    // Brandscape columns are dynamic (every metric's columns); the service checks those.
    const selectable = Object.entries(spec.fields as Readonly<Record<string, FieldCaps>>).filter(([, caps]) => caps.select).map(([f]) => f);
    const unknown = fields.filter((f) => !selectable.includes(f));
    if (unknown.length > 0) {
      throw new UsageError(`${unknown.map((f) => `'${f}'`).join(', ')} ${unknown.length > 1 ? 'are not fields' : 'is not a field'} of ${spec.path} that --fields can select.`, { hint: `Fields: ${selectable.join(', ')}.` });
    }
  }

  const service = await openService(io, values, concurrency === undefined ? {} : { concurrency });
  const bar = createProgressBar(io, path);
  const started = Date.now();
  let records = 0;
  let pages = 0;
  let total = 0;
  let droppedColumns: ReadonlySet<string> = new Set();
  try {
    const loadOptions: FetchAllOptions = {
      signal: io.signal,
      onProgress: (p: LoadProgress) => bar.update(p),
      ...(maxPages === undefined ? {} : { maxPages }),
    };
    const common = {
      filter,
      ...(include ? { include } : {}),
      ...(fields ? { fields } : {}),
      ...(values.sort ? { sort: list(values.sort) } : {}),
      ...(perPage === undefined ? {} : { perPage }),
    };
    // Parameters come from the command line as text: the catalogue checks above stand in for the
    // compile-time checks of typed callers, and the service validates the rest.
    const openPages = (): AsyncIterable<{ records: readonly unknown[]; total: number }> => {
      if (path === 'brandscape-data') {
        const params = {
          ...common,
          ...(values['metric-keys'] ? { metricKeys: list(values['metric-keys']) } : {}),
          ...(values['metric-group-keys'] ? { metricGroupKeys: list(values['metric-group-keys']) } : {}),
        } as BrandscapeParams;
        return service.client.brandscape.pages(params, loadOptions);
      }
      const params = { ...common, ...(values.search === undefined ? {} : { search: values.search }) };
      return service.client.resource(path).pages(params, loadOptions);
    };
    // A file can be started afresh when the data changes during the load (the loader's rule: one
    // reload); what went to stdout cannot be taken back, so there the change is an error.
    // Parquet: metric columns are floats even when whole (index scores), from the catalogue.
    const metricColumns =
      format === 'parquet' && isBrandscape
        ? service.client.metricCatalogue({ signal: io.signal }).then(
            (c) => c.columns.allColumns,
            () => [],
          )
        : Promise.resolve([]);
    // Brandscape rows name their market and year by id only: the study's country code and year
    // go beside them (docs/columns.md), unless an include brings them already.
    const markets = isBrandscape ? createMarketColumns(service.client, include ?? [], io.signal) : undefined;
    for (let attempt = 1; ; attempt += 1) {
      const sink =
        format === 'parquet' && outPath ? await createParquetSink(outPath, metricColumns) : createRecordSink(format, outPath ? { file: outPath } : { stdout: io.stdout });
      records = 0;
      pages = 0;
      try {
        for await (const page of openPages()) {
          const rows = page.records as Record<string, unknown>[];
          await sink.write(markets ? await markets.add(rows) : rows);
          records += page.records.length;
          pages += 1;
          total = page.total;
        }
        await sink.close();
        droppedColumns = sink.droppedColumns;
        break;
      } catch (error) {
        await sink.abort();
        if (attempt === 1 && values.out && error instanceof LoadError && error.code === 'data_changed') {
          io.stderr.write(`brandscape fetch: ${error.message} Loading again.\n`);
          continue;
        }
        throw error;
      }
    }
  } catch (error) {
    bar.done();
    throw error;
  } finally {
    await service.close();
  }
  bar.done();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const partial = records < total ? ` (stopped at --max-pages: ${records} of ${total}; the output is incomplete)` : '';
  io.stderr.write(`Fetched ${counted(records, 'record')} of ${path} in ${counted(pages, 'page')} (${seconds} s)${values.out ? ` into ${values.out}` : ''}${partial}.\n`);
  if (droppedColumns.size > 0) io.stderr.write(`Note: columns that appeared after the first page were left out of the CSV: ${[...droppedColumns].join(', ')}.\n`);
  return EXIT.ok;
}
