/**
 * `brandscape-kit/danfo`: the toolkit's tables as danfojs DataFrames, for notebook users who know
 * pandas. danfojs-node is an optional peer dependency: it is large (with TensorFlow.js, ~270 MB)
 * and needs two `overrides` to install, so a project that only builds reports or compares from the
 * terminal does without it. This entry point is the only part of the package whose types mention
 * danfojs-node; the root entry compiles in a project that does not have it.
 *
 * @example
 * import { crossMarket } from 'brandscape-kit';
 * import { toDanfo } from 'brandscape-kit/danfo';
 * const df = await toDanfo(crossMarket(input, { year: 2024, metrics: ['esteem'] }));
 * df.head().print();
 */
export { loadDanfo, toDanfo, DANFO_INSTALL_HINT } from './to-danfo.js';
export type { DataFrame } from 'danfojs-node';
