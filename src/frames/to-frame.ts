/**
 * `toFrame`: records to a danfojs DataFrame in one step, for notebooks.
 */
import type { DataFrame } from 'danfojs-node';
import { FrameTable, type FrameMeta } from './frame-table.js';
import { toTable, type ToTableOptions } from './to-table.js';

/**
 * Loaded records (or a table) to a danfojs DataFrame, flattened by `toTable`'s rules: included
 * objects become `company_id`, `company_name`, `sector_name`, ...; the brand include's global name
 * is `global_brand_name`, never confused with the row's local `brand_name`. The heavy work (reading
 * the records) runs on typed arrays; danfojs is loaded lazily and only receives finished columns.
 *
 * @example
 * const rows = await client.brandscape.all({ filter: { studies: 381, audiences: 1 }, metricKeys: ['esteem'], include: ['brand', 'sector'] });
 * const df = await toFrame(rows);
 * df.head().print();
 */
export async function toFrame(records: readonly object[] | FrameTable<object, FrameMeta>, options: ToTableOptions = {}): Promise<DataFrame> {
  const table = records instanceof FrameTable ? records : toTable(records, options);
  return table.toDanfo();
}
