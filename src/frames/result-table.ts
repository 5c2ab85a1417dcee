/**
 * Comparison results are built as typed plain rows (small: entities x markets x metrics) and then
 * stored as a table, with the column kinds fixed by the row contract rather than guessed from the
 * values: a count is an `int` even when every count is missing, a value a `float` even when every
 * value is a whole number.
 */
import type { ColumnKind, FrameMeta } from './frame-table.js';
import { FrameTable } from './frame-table.js';
import { toTable } from './to-table.js';

export interface ResultSchema {
  /** Every column of the row contract, in display order. */
  readonly columns: readonly string[];
  readonly kinds: Readonly<Record<string, ColumnKind>>;
}

export function resultTable<R extends object, M extends FrameMeta>(rows: readonly R[], schema: ResultSchema, meta: M): FrameTable<R, M> {
  const table = toTable<R>(rows, { columns: schema.columns, kinds: schema.kinds, source: meta.source });
  return table.withMeta(meta);
}

/** Kinds shared by the contracts' key parts. */
export const MARKET_KINDS = { country_id: 'int', market: 'string', country_code: 'string' } as const satisfies Record<string, ColumnKind>;
export const ENTITY_KINDS = { entity_kind: 'string', entity_id: 'int', entity_name: 'string', global_name: 'string' } as const satisfies Record<string, ColumnKind>;
export const METRIC_KINDS = { metric: 'string', metric_name: 'string', metric_group: 'string', score_type: 'string', column: 'string' } as const satisfies Record<string, ColumnKind>;
