/**
 * Vega-Lite has no label collision avoidance, so charts that label many points (slope chart ends,
 * power grid brands) place labels here, in JavaScript, where the plot's pixel size and scale
 * domains are known because the builder fixes them.
 */

/**
 * Moves label positions apart along one axis so that neighbours are at least `gap` pixels apart,
 * as close to where they want to be as possible, and within [0, extent]. Positions are pixels
 * from the top; the result keeps the input order.
 *
 * @example
 * dodgeLabels([100, 104, 300], 14, 400) // [95, 109, 300]
 */
export function dodgeLabels(wanted: readonly number[], gap: number, extent: number): number[] {
  const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  // Clusters of labels that touch are placed as one block centred on their mean wish, then
  // merged with the previous block when they overlap it (the classic "beeswarm in 1-D").
  const blocks: { start: number; items: number[]; mean: number }[] = [];
  for (const { y, i } of order) {
    blocks.push({ start: y, items: [i], mean: y });
    for (;;) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a === undefined || b === undefined) break;
      const aEnd = a.start + (a.items.length - 1) * gap;
      if (b.start - aEnd >= gap) break;
      const items = [...a.items, ...b.items];
      const mean = (a.mean * a.items.length + b.mean * b.items.length) / items.length;
      blocks.splice(blocks.length - 2, 2, { start: mean - ((items.length - 1) * gap) / 2, items, mean });
    }
  }
  const out = new Array<number>(wanted.length).fill(0);
  // Top-down: no block starts above the top edge or before the previous block ends.
  let floor = 0;
  for (const block of blocks) {
    const start = Math.max(block.start, floor);
    block.items.forEach((i, k) => (out[i] = start + k * gap));
    floor = start + block.items.length * gap;
  }
  // Bottom-up: labels pushed past the bottom edge move back up, pushing their neighbours.
  let limit = extent;
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k]?.i;
    if (i === undefined) continue;
    const y = Math.min(out[i] ?? 0, limit);
    out[i] = y;
    limit = y - gap;
  }
  // More labels than fit: they overlap at the top rather than leave the plot.
  return out.map((y) => Math.max(0, y));
}
