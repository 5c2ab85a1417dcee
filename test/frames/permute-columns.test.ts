/**
 * `permuteColumns` (what `sortBy` writes its columns with): the direct gather on small or local
 * permutations, the two-pass bucketed gather on large scattered ones. Expectations come from a
 * formula per row, not from another gather.
 */
import { describe, expect, it } from 'vitest';
import { BOOL_NULL, INT_NULL, type FrameColumn } from '../../src/frames/column.js';
import { isLocal, permuteColumns } from '../../src/frames/permute-columns.js';

/**
 * Every kind of column, row r holding a value computed from r (some missing). Three columns of
 * 8-byte values and three of 4-byte values, interleaved: the bucketed gather moves them in pairs
 * and one alone, and must put each back in its place.
 */
function columnsOf(n: number): FrameColumn[] {
  return [
    { kind: 'float', values: Float64Array.from({ length: n }, (_, r) => (r % 11 === 0 ? Number.NaN : r / 4)) },
    { kind: 'int', values: Int32Array.from({ length: n }, (_, r) => (r % 13 === 0 ? INT_NULL : r - 5)) },
    { kind: 'date', values: Float64Array.from({ length: n }, (_, r) => Date.UTC(2020, 0, 1) + r * 60_000) },
    { kind: 'bool', values: Uint8Array.from({ length: n }, (_, r) => (r % 7 === 0 ? BOOL_NULL : r % 3 === 0 ? 1 : 0)) },
    { kind: 'string', codes: Int32Array.from({ length: n }, (_, r) => (r % 5 === 4 ? -1 : r % 4)), dictionary: ['a', 'b', 'c', 'd'] },
    { kind: 'float', values: Float64Array.from({ length: n }, (_, r) => -3 * r) },
    { kind: 'int', values: Int32Array.from({ length: n }, (_, r) => 2 * r + 1) },
  ];
}

const KINDS = ['float', 'int', 'date', 'bool', 'string', 'float', 'int'];

/** The values row `r` of `columnsOf` holds, in the same order. */
function rowOf(r: number): (number | null)[] {
  return [r % 11 === 0 ? Number.NaN : r / 4, r % 13 === 0 ? INT_NULL : r - 5, Date.UTC(2020, 0, 1) + r * 60_000, r % 7 === 0 ? BOOL_NULL : r % 3 === 0 ? 1 : 0, r % 5 === 4 ? -1 : r % 4, -3 * r, 2 * r + 1];
}

function cellsAt(columns: FrameColumn[], i: number): (number | null)[] {
  return columns.map((c) => (c.kind === 'string' ? c.codes[i]! : c.values[i]!));
}

describe('permuteColumns', () => {
  it('rearranges a small table (direct gather) and shares the dictionary', () => {
    const columns = columnsOf(6);
    const out = permuteColumns(columns, Int32Array.from([5, 0, 3, 1, 4, 2]));
    expect(out.map((c) => c.kind)).toEqual(KINDS);
    expect([0, 1, 2, 3, 4, 5].map((i) => cellsAt(out, i))).toEqual([rowOf(5), rowOf(0), rowOf(3), rowOf(1), rowOf(4), rowOf(2)]);
    expect(out[4]!.kind === 'string' && out[4]!.dictionary).toBe(columns[4]!.kind === 'string' && columns[4]!.dictionary);
  });

  it('rearranges a large table by a scattered permutation (bucketed gather), every kind of column', () => {
    // 200,003 rows (enough for the bucketed gather, a last block that is not full); output row i
    // takes input row (i * 7919) mod n: consecutive output rows read input rows 7,919 apart.
    const n = 200_003;
    const order = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
    expect(isLocal(order)).toBe(false);
    const columns = columnsOf(n);
    const out = permuteColumns(columns, order);
    expect(out.map((c) => c.kind)).toEqual(KINDS);
    expect(out[4]!.kind === 'string' && out[4]!.dictionary).toBe(columns[4]!.kind === 'string' && columns[4]!.dictionary);
    const wrong: number[] = [];
    for (let i = 0; i < n; i++) {
      const got = cellsAt(out, i);
      const want = rowOf((i * 7919) % n);
      if (!got.every((v, k) => Object.is(v, want[k]))) wrong.push(i);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // The input columns are left as they were.
    expect(cellsAt(columns, 12_345)).toEqual(rowOf(12_345));
  });

  it('keeps the direct gather for permutations that already read locally', () => {
    const n = 200_000;
    expect(isLocal(Int32Array.from({ length: n }, (_, i) => i))).toBe(true);
    expect(isLocal(Int32Array.from({ length: n }, (_, i) => n - 1 - i))).toBe(true);
    // Sorted by a key that follows the table's blocks: rows interleaved from 4 runs of 50,000.
    expect(isLocal(Int32Array.from({ length: n }, (_, i) => (i % 4) * 50_000 + (i >> 2)))).toBe(true);
    // A random shuffle reads a new page for most rows.
    let s = 1;
    const shuffled = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const j = s % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    expect(isLocal(shuffled)).toBe(false);
    const out = permuteColumns(columnsOf(n), shuffled);
    for (const i of [0, 1, 4095, 4096, 50_000, n - 1]) expect(cellsAt(out, i)).toEqual(rowOf(shuffled[i]!));
  });
});
