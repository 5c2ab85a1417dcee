/**
 * `ReportSpec`: a report as plain data, what `buildReport` returns and every writer reads (the
 * workbook, the HTML file, a notebook's display). JSON-serialisable: tables are rows of cells,
 * charts are Vega-Lite specs.
 */
import type { ChartSpec } from '../charts/chart-spec.js';
import type { ScoreType } from '../schemas/score-types.js';
import type { SectionKind } from './template/template-schema.js';

/** A cell of a report table: missing values are null. */
export type ReportCell = string | number | boolean | null;

/**
 * How a column's numbers are shown (the stored value keeps full precision; the format rounds):
 * `rank` percentile ranks as whole numbers, `pct` percentages with one decimal, `c` construct scores
 * with two, `index` index scores with one, `value` whole numbers with separators, `change-*` the
 * same with a sign, `integer` counts and ids, `money` amounts with separators, `number` two
 * decimals, `text`, `bool`, `date` (ISO text).
 */
export type CellFormat =
  | 'text'
  | 'integer'
  | 'bool'
  | 'date'
  | 'number'
  | 'money'
  | 'general'
  | ScoreType
  | `change-${ScoreType}`;

export interface ReportColumn {
  /** Stable key (unique within the table), e.g. `market_GB`. */
  readonly key: string;
  /** Header shown to readers (unique within the table), e.g. `United Kingdom`. */
  readonly header: string;
  readonly format: CellFormat;
}

/**
 * Cells coloured by value (a comparison matrix): rows `fromRow..toRow` and columns
 * `fromColumn..toColumn` of the table body (0-based, inclusive), on one scale. `mid` is the
 * scale's natural middle (50 for ranks, 0 for construct scores, 100 for indexes), else the median.
 */
export interface ColourScale {
  readonly fromRow: number;
  readonly toRow: number;
  readonly fromColumn: number;
  readonly toColumn: number;
  readonly min?: number;
  readonly mid?: number;
  readonly max?: number;
}

export interface ReportTable {
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly (readonly ReportCell[])[];
  /** Leading columns that identify a row (kept in view when scrolling sideways). */
  readonly keyColumns: number;
  readonly colourScales: readonly ColourScale[];
  /** Body rows (0-based) set in bold: the focus brand's, as its line and cells stand out in the chart. */
  readonly emphasis?: readonly number[];
}

export interface ReportSection {
  /** Position in the report, from 1. */
  readonly index: number;
  readonly kind: SectionKind;
  readonly title: string;
  readonly description: string | null;
  readonly table: ReportTable;
  /** The section's chart, or null when the template asked for none or there was nothing to draw. */
  readonly chart: ChartSpec | null;
  /**
   * Why there is no chart although the template asked for one, in words a reader sees where the
   * chart would be (e.g. `No slope chart: only Veros has values in both 2022 and 2025; the table
   * shows its change.`). Absent when there is a chart or none was asked for.
   */
  readonly noChart?: string;
  /** The focus brand's id, when the section has one (`focus:`): outlined or drawn thick in the chart, bold in the table. */
  readonly focus?: number;
  /** What a reader needs to know to read this section's numbers. */
  readonly notes: readonly string[];
  /** One line saying what the section holds, e.g. `3 brands x 6 markets x 4 metrics`. */
  readonly summary: string;
}

/** A labelled value of the About sheet. */
export interface AboutItem {
  readonly label: string;
  readonly value: string;
}

/** Provenance: where the numbers came from and how they were asked for. */
export interface ReportAbout {
  /** Title, generated, template, toolkit version, source host, API version, audience, ... */
  readonly items: readonly AboutItem[];
  /** Every parameter with its value, default and whether it was given. */
  readonly parameters: ReportTable;
  /** Every query the report made, with its filters and record count. */
  readonly queries: ReportTable;
}

export interface ReportSpec {
  readonly title: string;
  readonly description: string | null;
  /** The template's name. */
  readonly template: string;
  /**
   * What made the spec when it was not a template, e.g. `brandscape compare` (the HTML file says
   * "Generated ... by brandscape compare" instead of naming a template).
   */
  readonly madeBy?: string;
  /** When the report was built, ISO-8601 UTC. */
  readonly generatedAt: string;
  readonly about: ReportAbout;
  /** Notes for the whole report: de-duplication, weighting, score types, data that was missing. */
  readonly notes: readonly string[];
  readonly sections: readonly ReportSection[];
  /** The tidy rows behind the report (the workbook's Data sheet). */
  readonly data: ReportTable;
}
