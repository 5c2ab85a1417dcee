/**
 * vega-lite's own types, for building specs inside the toolkit. They stay out of the package's
 * declarations: vega-lite's types need the DOM library and resolve only through `exports`, so a
 * user's project with `lib: ["es2022"]`, or with the old node resolution tslab uses, would fail to
 * compile with them (`skipLibCheck: false`). Builders are checked against them while they build a
 * spec; what they return is a `ChartSpec`, plain JSON.
 */
import type { Config, TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from './chart-spec.js';

/** A Vega-Lite specification as vega-lite types it. */
export type VegaLiteSpec = TopLevelSpec;
/** The `config` block of a spec as vega-lite types it. */
export type VegaLiteConfig = Config;
/** The inner spec of a faceted chart (one panel), as Vega-Lite types it. */
export type PanelSpec = Extract<VegaLiteSpec, { facet: unknown }>['spec'];
/** A layered panel: layers sharing encodings, usable alone or inside a facet. */
export type LayeredPanel = Extract<PanelSpec, { layer: unknown }>;

/**
 * A builder's spec as the package publishes it. vega-lite types its specs with interfaces, which
 * TypeScript does not let stand for a JSON record though every spec is one: the widening is
 * written once, here.
 */
export function published(spec: VegaLiteSpec): ChartSpec {
  return spec as unknown as ChartSpec;
}

/** Any spec, the toolkit's or a user's, for vega-lite's compiler, which checks it as it compiles. */
export function forVegaLite(spec: ChartSpec): VegaLiteSpec {
  return spec as unknown as VegaLiteSpec;
}
