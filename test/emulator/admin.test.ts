/**
 * The emulator's admin routes need no token, so anything may arrive: every body is parsed and
 * bounded, anything else is a 400 (413 when too large) that says what is accepted, and nothing
 * takes the process down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, createEmulator, type Emulator } from '../../src/emulator/index.js';
import { call } from '../helpers/http.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, dataset: createDataset({ seed: 5, brands: 200 }) });
});
afterAll(() => emulator.close());

const post = (path: string, body: unknown) =>
  fetch(`${emulator.url}/__emulator/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }).then(async (r) => ({
    status: r.status,
    message: ((await r.json()) as { data?: { message?: string } }).data?.message ?? '',
  }));

describe('admin routes', () => {
  it.each([
    ['a billion brands', 'publish', { kind: 'brands', count: 1_000_000_000 }, /count.*1000/],
    ['null', 'publish', null, /publish takes/],
    ['a list', 'publish', [1, 2], /publish takes/],
    ['an unknown kind', 'publish', { kind: 'everything' }, /publish takes/],
    ['a text count', 'publish', { kind: 'brands', count: 'three' }, /count/],
    ['a negative study id', 'publish', { kind: 'study', studyId: -4 }, /studyId/],
    ['an unknown key', 'publish', { kind: 'study', force: true }, /force/],
    ['too many brand ids', 'publish', { kind: 'brands', brandIds: Array.from({ length: 1001 }, (_, i) => i + 1) }, /brandIds/],
    ['not JSON', 'publish', '{"kind":', /must be JSON/],
    ['a fault of kind 999', 'faults', { kind: 999 }, /A fault rule is/],
    ['a fault of kind "boom"', 'faults', { kind: 'boom' }, /A fault rule is/],
    ['a fault without a kind', 'faults', { path: '/brands' }, /kind/],
    ['null faults', 'faults', null, /A fault rule is/],
    ['a fault with a text nth', 'faults', { kind: 500, nth: 'first' }, /nth/],
    ['a fault path without a slash', 'faults', { kind: 500, path: 'brands' }, /path/],
    ['101 fault rules', 'faults', Array.from({ length: 101 }, () => ({ kind: 500 })), /at most 100/],
  ])('%s: 400 saying what is accepted', async (_name, route, body, says) => {
    const answer = await post(route, body);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(says);
  });

  it('refuses a body over 64 KB with 413', async () => {
    const answer = await post('faults', `[${'{"kind":500},'.repeat(6000)}{"kind":500}]`);
    expect(answer.status).toBe(413);
  });

  it('still serves after all of that, and takes well-formed bodies', async () => {
    expect((await call(emulator, '/api/v2/brands?per_page=1')).status).toBe(200);
    expect(await post('publish', { kind: 'brands', count: 2 })).toMatchObject({ status: 200 });
    expect(await post('publish', {})).toMatchObject({ status: 200 });
    expect(await post('faults', [{ kind: 503, path: '/brands', times: 'all' }, { kind: 'reset', nth: 2 }])).toMatchObject({ status: 200 });
    expect((await call(emulator, '/api/v2/brands?per_page=1')).status).toBe(503);
    expect((await call(emulator, '/__emulator/faults', { method: 'DELETE', token: null })).status).toBe(200);
    expect((await call(emulator, '/api/v2/brands?per_page=1')).status).toBe(200);
  });
});
