/**
 * The discovery commands: `brandscape markets`, `years`, `studies`, `audiences` and `metrics`,
 * each a table of what there is (the library's `loadMarkets`, `loadYears`, ... ), printed as an
 * aligned table (every row), CSV or JSON. Thin: the options in, the library's table out.
 */
import { UsageError, loadAudiences, loadMarkets, loadMetrics, loadStudies, loadYears, type BrandscapeClient, type FrameTable } from '../../index.js';
import { fromArgv, type OptionSpec } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

const FORMATS = ['table', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];

const FORMAT_HELP = `  --format F              table (default: aligned columns, every row), csv (RFC 4180, a header
                          line) or json (an array of objects)`;

/** A comma-separated, repeatable list option as its items. */
const listOf = (values: readonly string[] | undefined): string[] | undefined =>
  values === undefined ? undefined : values.join(',').split(',').map((s) => s.trim()).filter((s) => s !== '');

/** Years as `2024`, `2021..2024` or lists of them. */
function yearsOf(values: readonly string[] | undefined): number[] | undefined {
  const items = listOf(values);
  if (items === undefined) return undefined;
  const out: number[] = [];
  for (const item of items) {
    const range = /^(\d{4})\s*\.\.\s*(\d{4})$/.exec(item);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (to < from) throw new UsageError(`--years ${item}: the range ends before it starts.`);
      for (let y = from; y <= to; y++) out.push(y);
    } else if (/^\d{4}$/.test(item)) out.push(Number(item));
    else throw new UsageError(`--years takes calendar years (2024) or ranges (2021..2024), not '${item}'.`);
  }
  return out;
}

/** Markets by code or name: `GB,DE` or `"United Kingdom",Germany`. */
const marketsOf = (values: readonly string[] | undefined) => listOf(values)?.map((m) => (/^\d+$/.test(m) ? Number(m) : m));

function formatOf(value: string | undefined): Format {
  if (value === undefined) return 'table';
  const f = value.trim().toLowerCase();
  if (!(FORMATS as readonly string[]).includes(f)) throw new UsageError(`--format is table, csv or json, not '${value}'.`);
  return f as Format;
}

/** The table on stdout in the chosen format. */
export function tableText(table: FrameTable<object>, format: Format, view?: readonly string[]): string {
  if (format === 'csv') return table.toCsv().replaceAll('\r\n', '\n');
  if (format === 'json') return table.length === 0 ? '[]\n' : `[\n${table.rows().map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
  const shown = view ? table.select([...view]) : table;
  // Every row, and wide enough for every column: a terminal wraps what it cannot show.
  return `${shown.toString({ rows: Math.max(shown.length, 1), width: 1000, columnWidth: 100 })}\n`;
}

interface Discovery {
  name: string;
  help: string;
  options: OptionSpec;
  load(client: BrandscapeClient, values: Record<string, unknown>, signal: AbortSignal): Promise<FrameTable<object>>;
  /** The columns the table format shows (default all; csv and json always have all). */
  view?: readonly string[];
}

const commands: Record<string, Discovery> = {
  markets: {
    name: 'markets',
    help: `Usage: brandscape markets [--format table|csv|json]

Lists the markets with released studies: ISO code (what --markets takes), name, region, the years
of their released full-year studies, the first and latest of them, how many full-year studies and
quarterly waves (the US) there are.

Options:
${FORMAT_HELP}
${SERVICE_HELP}
  -h, --help              Show this help

Examples:
  brandscape markets
  brandscape markets --format csv > markets.csv
`,
    options: {},
    load: (client, _values, signal) => loadMarkets(client, { signal }),
  },
  years: {
    name: 'years',
    help: `Usage: brandscape years [--markets GB,DE,...] [--format table|csv|json]

Lists the years with released studies, latest first: how many markets have a released full-year
study each year (and which), which of the markets asked for have none, whether every one has, and
the quarterly waves. The first year with in_every_market true is the latest year a comparison of
those markets can use.

Options:
  --markets A,B           Markets by ISO code or name (default: every market with studies)
${FORMAT_HELP}
${SERVICE_HELP}
  -h, --help              Show this help

Examples:
  brandscape years
  brandscape years --markets GB,DE,FR,US
  brandscape years --markets "United Kingdom",Germany --format json
`,
    options: { markets: { type: 'string', multiple: true } },
    load: (client, values, signal) => {
      const markets = marketsOf(values['markets'] as string[] | undefined);
      return loadYears(client, { ...(markets ? { markets } : {}), signal });
    },
  },
  studies: {
    name: 'studies',
    help: `Usage: brandscape studies [--markets GB,DE,...] [--years 2024,...] [--full-year] [--format table|csv|json]

Lists the released studies of some markets and years: id, name, market, year, period (2024, or
2024 Q2 for a US quarterly wave), whether it is a full-year study, respondents, brands, and when
its data was released.

Options:
  --markets A,B           Markets by ISO code or name (default: every market)
  --years Y,Y             Calendar years or ranges, e.g. 2024 or 2021..2024 (default: every year)
  --full-year             Full-year studies only (leave out the US quarterly waves)
${FORMAT_HELP}
${SERVICE_HELP}
  -h, --help              Show this help

Examples:
  brandscape studies --markets GB,DE
  brandscape studies --markets GB,DE,US --years 2024,2025
  brandscape studies --markets US --years 2024 --format csv
`,
    options: { markets: { type: 'string', multiple: true }, years: { type: 'string', multiple: true }, 'full-year': { type: 'boolean' } },
    load: (client, values, signal) => {
      const markets = marketsOf(values['markets'] as string[] | undefined);
      const years = yearsOf(values['years'] as string[] | undefined);
      return loadStudies(client, { ...(markets ? { markets } : {}), ...(years ? { years } : {}), ...(values['full-year'] ? { waves: false } : {}), signal });
    },
  },
  audiences: {
    name: 'audiences',
    help: `Usage: brandscape audiences [--all] [--format table|csv|json]

Lists the audiences (respondent groups) available with brandscape data: id and name (what
--audience takes), description. Audience 1 is All Adults, everyone surveyed.

Options:
  --all                   Also inactive audiences and those not available with brandscape data
${FORMAT_HELP}
${SERVICE_HELP}
  -h, --help              Show this help

Examples:
  brandscape audiences
  brandscape compare --brands Veros --markets GB,DE --audience female
`,
    options: { all: { type: 'boolean' } },
    load: (client, values, signal) => loadAudiences(client, { all: values['all'] === true, signal }),
    view: ['id', 'name', 'description'],
  },
  metrics: {
    name: 'metrics',
    help: `Usage: brandscape metrics [--groups pillars,...] [--format table|csv|json]

Lists the metrics: the key (what --metrics takes, e.g. esteem), the name, the groups (what
--metric-groups takes, e.g. pillars), the score types (what --score-type takes: rank, c, pct,
brandscape_index, category_index, value) and the brandscape columns each gives (esteem_c,
esteem_rank, ...: what --metrics also takes). csv and json add whether a metric is core or legacy,
and its description.

Options:
  --groups A,B            Only the metrics of these groups
${FORMAT_HELP}
${SERVICE_HELP}
  -h, --help              Show this help

Examples:
  brandscape metrics
  brandscape metrics --groups pillars,power_grid
  brandscape metrics --format json > metrics.json
`,
    options: { groups: { type: 'string', multiple: true } },
    load: (client, values, signal) => {
      const groups = listOf(values['groups'] as string[] | undefined);
      return loadMetrics(client, { ...(groups ? { groups } : {}), signal });
    },
    view: ['key', 'name', 'groups', 'score_types', 'columns'],
  },
};

/** Help and run of a discovery command, for the command registry. */
export function discoveryCommand(name: keyof typeof commands  ): { help: string; run(argv: readonly string[], io: CommandIo): Promise<number> } {
  const command = commands[name]!;
  return {
    help: command.help,
    async run(argv, io) {
      const { values } = fromArgv(command.name, argv, { ...SERVICE_OPTIONS, ...command.options, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
      if (values.help) {
        io.stdout.write(command.help);
        return EXIT.ok;
      }
      const format = formatOf(values.format);
      const service = await openService(io, values);
      let table: FrameTable<object>;
      try {
        table = await command.load(service.client, values, io.signal);
      } finally {
        await service.close();
      }
      io.stdout.write(tableText(table, format, command.view));
      return EXIT.ok;
    },
  };
}
