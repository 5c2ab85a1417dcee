/**
 * `brandscape-kit/compare`: ad-hoc comparisons of a few brands (`compareBrands`) and what their
 * long form need, without the rest of the package: a script or the `compare` command that prints a
 * table loads far fewer modules than `brandscape-kit` does. The chart and report of a comparison
 * (`comparisonChart`, `comparisonReport`) and the writers of files (workbook, HTML, PNG, Parquet)
 * stay in `brandscape-kit`, imported when a file is asked for.
 */
export { compareBrands } from './compare-brands.js';
export { COMPARISON_RECORD_COLUMNS, type CompareBrandsOptions, type Comparison } from './types.js';
export { checkOutputPath, stageFile, toOutputError, type StagedFile } from '../report/atomic-file.js';
export { cellColours } from '../report/cell-colours.js';
export { formatCell } from '../report/format-cell.js';
export type { ReportTable } from '../report/report-spec.js';
export { fromOptionText } from '../report/template-params.js';
export { UsageError } from '../errors.js';
export type { FrameTable } from '../frames/frame-table.js';
export { toTable } from '../frames/to-table.js';
export { SCORE_TYPES, type ScoreType } from '../schemas/score-types.js';
