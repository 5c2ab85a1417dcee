/**
 * `toDanfo`: a table (or loaded records) to a danfojs DataFrame. The heavy work (reading records,
 * filtering, grouping) runs on the toolkit's typed arrays; danfojs only receives finished columns,
 * as it is 23-100x slower than pandas on the core operations (shared/NOTES.md).
 */
import type { DataFrame } from 'danfojs-node';
import { UsageError } from '../errors.js';
import { INT_NULL, cellOf, type ColumnKind, type FrameColumn, type FrameMeta, type FrameTable } from '../frames/frame-table.js';
import { toTable, type ToTableOptions } from '../frames/to-table.js';

type DanfoModule = typeof import('danfojs-node');

/**
 * What to add to a project for `toDanfo()`. danfojs-node 1.2 depends on an `xlsx` tarball outside
 * the npm registry and on `@tensorflow/tfjs-node`, whose install downloads a native library; npm
 * honours `overrides` only in the project being installed, so they have to be the user's own.
 */
export const DANFO_INSTALL_HINT =
  'Install it in your project: npm install danfojs-node@^1.2.0, with these overrides in your package.json first (danfojs-node ' +
  'depends on an xlsx tarball outside the npm registry and on a native TensorFlow download): ' +
  '"overrides": { "xlsx": "0.18.5", "@tensorflow/tfjs-node": "npm:@tensorflow/tfjs@3.21.0" }. ' +
  "A project made with 'npx brandscape init' has both.";

let danfo: Promise<DanfoModule> | undefined;

/**
 * The danfojs-node module, imported on first use (it takes about a second: it loads TensorFlow.js).
 *
 * @throws UsageError when danfojs-node (or a package it needs) is not installed, with the install step.
 * @example
 * const dfd = await loadDanfo();
 * dfd.concat({ dfList: [a, b], axis: 0 });
 */
export function loadDanfo(): Promise<DanfoModule> {
  danfo ??= import('danfojs-node').catch((error: unknown) => {
    danfo = undefined;
    throw notInstalled(error) ?? error;
  });
  return danfo;
}

/** A UsageError for a missing danfojs-node (or a missing package of its own), else undefined. */
function notInstalled(error: unknown): UsageError | undefined {
  const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error instanceof Error ? error.message : '')?.[1] ?? 'danfojs-node';
  const what = missing.includes('danfojs-node') ? 'danfojs-node is not installed' : `danfojs-node is installed but ${missing}, which it needs, is not`;
  return new UsageError(`${what}: toDanfo() builds a danfojs DataFrame, and danfojs-node is an optional dependency of brandscape-kit.`, {
    hint: DANFO_INSTALL_HINT,
    cause: error,
  });
}

const DANFO_DTYPES: Readonly<Record<ColumnKind, string>> = {
  int: 'int32',
  float: 'float32',
  bool: 'boolean',
  string: 'string',
  date: 'datetime',
};

/**
 * A danfojs DataFrame of a table, or of loaded records flattened by `toTable`'s rules (included
 * objects become `company_id`, `company_name`, ...; the global brand name is `global_name`,
 * never confused with the row's local `brand_name`). Column types are passed to danfojs, which
 * halves its build time; `int` columns with missing values become `float32` with NaN, as danfojs has
 * no nullable integer type.
 *
 * @throws UsageError when danfojs-node is not installed (the message gives the install step).
 * @example
 * const df = await toDanfo(crossMarket(input, { year: 2024, metrics: ['differentiation'] }));
 * df.print();
 * const brands = await toDanfo(await client.brands.all({ include: ['sector'] })); // records work too
 */
export async function toDanfo(data: FrameTable<object, FrameMeta> | readonly object[], options: ToTableOptions = {}): Promise<DataFrame> {
  const table = toTable(data, options);
  const { DataFrame: DanfoDataFrame } = await loadDanfo();
  const names = table.columnNames;
  if (table.length === 0) return new DanfoDataFrame([], { columns: names });
  const dtypes: string[] = [];
  const columns: Record<string, unknown[]> = {};
  for (const name of names) {
    const column = table.column(name);
    const nullableInt = column.kind === 'int' && column.values.includes(INT_NULL);
    dtypes.push(nullableInt ? 'float32' : DANFO_DTYPES[column.kind]);
    columns[name] = valuesOf(column, table.length);
  }
  return new DanfoDataFrame(columns, { columns: names, dtypes });
}

function valuesOf(column: FrameColumn, n: number): unknown[] {
  const out = new Array<unknown>(n);
  switch (column.kind) {
    case 'float':
      for (let i = 0; i < n; i++) out[i] = column.values[i];
      return out;
    case 'int':
      for (let i = 0; i < n; i++) {
        const v = column.values[i]!;
        out[i] = v === INT_NULL ? NaN : v;
      }
      return out;
    default:
      for (let i = 0; i < n; i++) out[i] = cellOf(column, i);
      return out;
  }
}
