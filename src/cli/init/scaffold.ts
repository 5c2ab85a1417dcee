/**
 * The files of a new analysis project (`brandscape init`), as data: a pure function of the
 * project's name, the toolkit's version and the report template to start from, so the command
 * only has to write them.
 */

/** One file of the project, by its path relative to the project folder (always `/`-separated). */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
}

/** What the files depend on. */
export interface ScaffoldOptions {
  /** The package name (npm rules); also names the project's Jupyter kernel. */
  readonly name: string;
  /** The `brandscape-kit` dependency: a version range (default `^<toolkit version>`), a tarball path or a URL. */
  readonly kitSpec: string;
  /** The text of the report template the project starts with (a copy of a shipped template). */
  readonly templateText: string;
}

/** The name of the report template the project starts with, under `templates/`. */
export const SCAFFOLD_TEMPLATE = 'brand-health';

/**
 * The name of a project's Jupyter kernel: one per project, because a kernel spec holds the absolute
 * path of the project's own tslab, and two projects registering the same name would take each
 * other's kernel.
 *
 * @example
 * kernelNameOf('Brand Work 2026') // 'tslab-brand-work-2026'
 */
export function kernelNameOf(packageName: string): string {
  const slug = packageName.toLowerCase().replace(/^@[^/]+\//, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `tslab-${slug || 'project'}`;
}

/**
 * A valid npm package name made from a folder name: lower case, URL-safe, no leading dot or
 * underscore, at most 214 characters.
 *
 * @example
 * packageNameOf('Brand Work 2026') // 'brand-work-2026'
 */
export function packageNameOf(folderName: string): string {
  const name = folderName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 214);
  return name || 'brandscape-analysis';
}

/** The danfojs-node 1.2 install fixes a project needs in its own package.json (npm ignores a dependency's overrides). */
export const DANFO_OVERRIDES = { xlsx: '0.18.5', '@tensorflow/tfjs-node': 'npm:@tensorflow/tfjs@3.21.0' } as const;

/**
 * Every file of a new project.
 *
 * @example
 * scaffoldFiles({ name: 'brand-work', kitSpec: '^0.1.0', templateText }).map((f) => f.path)
 * // ['package.json', 'tsconfig.json', '.env.example', '.gitignore', 'README.md', 'notebooks/01-start.ipynb', 'templates/brand-health.yaml', 'reports/.gitkeep']
 */
export function scaffoldFiles(options: ScaffoldOptions): ScaffoldFile[] {
  const kernel = kernelNameOf(options.name);
  return [
    { path: 'package.json', content: json(packageJson(options)) },
    { path: 'tsconfig.json', content: TSCONFIG },
    { path: '.env.example', content: ENV_EXAMPLE },
    { path: '.gitignore', content: GITIGNORE },
    { path: 'README.md', content: readme(options.name) },
    { path: 'notebooks/01-start.ipynb', content: json(startNotebook(options.name, kernel)) },
    { path: `templates/${SCAFFOLD_TEMPLATE}.yaml`, content: projectTemplate(options.templateText) },
    { path: 'reports/.gitkeep', content: '' },
  ];
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function packageJson({ name, kitSpec }: ScaffoldOptions): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: 'Brand analysis with Brandscape Kit: notebooks, report templates and comparisons',
    engines: { node: '>=20' },
    scripts: {
      notebook: 'brandscape notebook',
      kernel: 'brandscape notebook --register-only',
      report: `brandscape report ${SCAFFOLD_TEMPLATE} --out reports`,
      compare: 'brandscape compare',
      emulator: 'brandscape emulator',
    },
    dependencies: {
      'brandscape-kit': kitSpec,
      // The notebook integrations (optional peers of brandscape-kit): DataFrames and the TypeScript kernel.
      'danfojs-node': '^1.2.0',
      tslab: '^1.0.22',
    },
    overrides: { ...DANFO_OVERRIDES },
    // npm 11 runs no dependency's install script unless allowed here, and lists every one it skipped
    // after each install. Neither is needed: core-js's only prints a message, and zeromq (tslab's
    // transport to Jupyter) ships prebuilt binaries. Saying so keeps installs quiet.
    allowScripts: { 'core-js': false, zeromq: false },
  };
}

const TSCONFIG = `{
  // For TypeScript scripts of your own and for your editor. Notebooks do not read this file: tslab,
  // the notebook kernel, has settings of its own.
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    // danfojs-node's own declarations refer to type packages it does not install (@types/request,
    // papaparse and plotly.js-dist-min types): without this, importing brandscape-kit/danfo reports
    // three errors inside node_modules. brandscape-kit's own types compile either way.
    "skipLibCheck": true
  },
  "include": ["**/*.ts"],
  "exclude": ["node_modules"]
}
`;

const ENV_EXAMPLE = `# Without these settings everything runs against an embedded emulator of the Brand Data Service
# with seeded demo data. To use the live service, copy this file to .env (git-ignored, never commit
# it) and fill in your personal access token from The Fount.
# BRANDSCAPE_BASE_URL=https://fount.wppbav.com
# BRANDSCAPE_TOKEN=
`;

const GITIGNORE = `node_modules/
.env
reports/*
!reports/.gitkeep
.brandscape-cache/
.ipynb_checkpoints/
`;

function readme(name: string): string {
  return `# ${name}

Brand analysis with [Brandscape Kit](https://www.npmjs.com/package/brandscape-kit): BAV brandscape data
from the Brand Data Service, in notebooks, scheduled reports and comparisons from the terminal.

Two commands set it up (Node.js 20 or later; Jupyter for notebooks: \`sudo apt-get install
jupyter-notebook\` on Debian or Ubuntu, or \`pip install notebook\`):

\`\`\`sh
npm install
npm run notebook      # registers this project's TypeScript kernel and opens Jupyter on notebooks/
\`\`\`

Without an account everything runs against an embedded emulator of the service with demo data. To
use the live service, copy \`.env.example\` to \`.env\` and set \`BRANDSCAPE_BASE_URL\` and
\`BRANDSCAPE_TOKEN\` (\`.env\` is git-ignored).

| Command | What it does |
|---|---|
| \`npm run notebook\` | registers the kernel "TypeScript (${name})" and opens Jupyter |
| \`npm run kernel\` | registers the kernel only (for VS Code, JupyterLab or nbconvert) |
| \`npm run report\` | builds \`templates/${SCAFFOLD_TEMPLATE}.yaml\` into \`reports/\` (an Excel workbook and an HTML page) |
| \`npm run compare -- --brands Veros,Polora --markets GB,DE,FR\` | a comparison in the terminal |

- \`notebooks/01-start.ipynb\`: connect, load a study, a DataFrame, a chart.
- \`templates/\`: report templates; \`npx brandscape templates show ${SCAFFOLD_TEMPLATE}\` lists the
  parameters, \`npm run report -- -p markets=GB,DE -p year=2024\` sets them.
- \`npx brandscape --help\` for everything else.
`;
}

function projectTemplate(text: string): string {
  // The shipped template's own header speaks of the toolkit's repository; this copy is the project's.
  const body = text.replace(/^(#[^\n]*\n)+/, '');
  return `# Your first report template (a copy of the toolkit's cross-market-brand-health): the four pillars
# of brand health for a few brands across markets in one year. 'npm run report' builds it into
# reports/; change the defaults below, or set parameters with -p (npm run report -- -p year=2024).
${body}`;
}

type Cell = { cell_type: 'markdown' | 'code'; id: string; source: string[]; metadata: Record<string, unknown>; outputs?: unknown[]; execution_count?: null };

/** Cells of nbformat 4.5, which requires an id per cell. */
function cells(...specs: ['markdown' | 'code', string][]): Cell[] {
  return specs.map(([kind, text], i) => {
    const lines = text.split('\n');
    const source = lines.map((line, j) => (j < lines.length - 1 ? `${line}\n` : line));
    const id = `start-${i + 1}`;
    return kind === 'code' ? { cell_type: 'code', id, execution_count: null, metadata: {}, outputs: [], source } : { cell_type: 'markdown', id, metadata: {}, source };
  });
}

function startNotebook(name: string, kernel: string): Record<string, unknown> {
  return {
    cells: cells(
      [
        'markdown',
        `# Start here

Connect to the Brand Data Service, load a study's brandscape data, look at it as a DataFrame and draw
a first chart. Without \`.env\` settings this runs against an embedded emulator with demo data.`,
      ],
      [
        'code',
        `import { connect, crossMarket, display, loadComparisonInput, powerGrid, showProgress, toTable } from 'brandscape-kit';
import { toDanfo } from 'brandscape-kit/danfo';

const { client } = await connect(); // says whether it uses the live service or the embedded emulator`,
      ],
      [
        'markdown',
        `## Load a study

A study is one market in one year. Take Great Britain's latest released full-year study and load the
four pillars of brand health (differentiation, relevance, esteem, knowledge) for All Adults.`,
      ],
      [
        'code',
        `const studies = await client.studies.all({ filter: { country_codes: 'GB', released: true, full_year: true }, include: ['year'] });
const year = Math.max(...studies.map((s) => Number(s.year?.year)));
const input = await loadComparisonInput(client, {
  countryCodes: ['GB'],
  years: [year],
  metricGroupKeys: ['pillars'],
  load: { onProgress: showProgress(\`Great Britain, \${year}\`) },
});
console.log(\`\${input.rows.length} rows: a row per brand and category it was studied in\`);`,
      ],
      [
        'markdown',
        `## A DataFrame

A brand studied in several categories has a row per category (all but one marked \`is_duplicate\`).
Keep one row per brand, most esteemed first, and turn it into a danfojs DataFrame with \`toDanfo\`.`,
      ],
      [
        'code',
        `const brands = toTable(input.rows)
  .where({ is_duplicate: false })
  .sortBy([{ column: 'esteem_rank', descending: true }])
  .select(['brand_name', 'sector_name', 'differentiation_rank', 'relevance_rank', 'esteem_rank', 'knowledge_rank']);
const df = await toDanfo(brands);
console.log(\`\${df.shape[0]} brands\`);
df.head(8).print();`,
      ],
      [
        'markdown',
        `## A chart

The power grid: brand strength (differentiation and relevance) against brand stature (esteem and
knowledge), for the eight most esteemed brands.`,
      ],
      [
        'code',
        `const pillars = ['differentiation', 'relevance', 'esteem', 'knowledge'];
const leaders = crossMarket(input, { year: year, metrics: ['esteem'] })
  .sortBy([{ column: 'value', descending: true }])
  .head(8)
  .rows()
  .map((r) => r.entity_id);
await display(powerGrid(crossMarket(input, { year: year, metrics: pillars, brands: leaders }).rows(), { market: 'GB' }));`,
      ],
    ),
    metadata: {
      kernelspec: { display_name: `TypeScript (${name})`, language: 'typescript', name: kernel },
      language_info: { name: 'typescript', file_extension: '.ts', mimetype: 'text/typescript' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}
