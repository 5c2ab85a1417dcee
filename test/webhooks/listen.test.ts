/**
 * `brandscape webhooks listen` end to end: the emulator publishes a new study and delivers a real
 * signed webhook; the receiver verifies it, answers 200, rebuilds the template whose market and
 * year the study is in (and not the other), and the rebuilt report holds the new study's data. A
 * forged, stale or replayed delivery changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createDataset, createEmulator, signWebhookBody, type Emulator } from '../../src/emulator/index.js';

const SECRET = 'whsec-9f2c1e-test-secret';
let emulator: Emulator;
let dir: string;
let port: number;
let stdout = '';
let stderr = '';
const controller = new AbortController();
let listening: Promise<number>;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

const template = (market: string, year: number) => `title: Review of ${market}, {year}
parameters:
  year:
    type: year
    default: ${year}
data:
  markets: [${market}]
  years: [$year]
  metric_groups: [pillars]
sections:
  - kind: sector-summary
    metrics: [esteem]
    chart: none
`;

async function waitFor(test: () => boolean, what: string, ms = 60_000) {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}. stdout:\n${stdout}\nstderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const post = (body: string, signature: string) =>
  fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'BAV-Event': 'Study', 'BAV-Delivery': randomUUID(), 'BAV-Signature': signature },
  });

const eventBody = (studyId: number, at: number, id = randomUUID()) =>
  JSON.stringify({ action: 'update', data: { id: studyId }, type: 'Study', url: `https://fount.wppbav.com/studies/${studyId}`, webhookDate: new Date(at * 1000).toISOString().replace('.000Z', 'Z'), webhookTimestamp: at, webhookId: id });

let newStudy: { id: number; code: string; year: number };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-webhooks-'));
  port = await freePort();
  const dataset = createDataset({ seed: 3, brands: 300 });
  const next = dataset.studies.find((s) => !s.released && s.quarter === null);
  const code = dataset.countries.find((c) => c.record.id === next?.countryId)?.record.code ?? '';
  newStudy = { id: next?.record.id ?? 0, code, year: next?.yearNumber ?? 0 };
  emulator = await createEmulator({ port: 0, dataset, webhooks: [{ url: `http://127.0.0.1:${port}/hooks`, secret: SECRET, events: ['Study'] }], webhookRetryDelaysMs: [100, 200] });
  await writeFile(join(dir, 'touched.yaml'), template(code, newStudy.year));
  await writeFile(join(dir, 'untouched.yaml'), template('GB', newStudy.year));
  listening = run(['webhooks', 'listen', '--port', String(port), '--secret-env', 'WH_SECRET', '--on-event', 'touched.yaml', '--on-event', 'untouched.yaml', '--out', '.'], {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token, WH_SECRET: SECRET },
    cwd: dir,
    signal: controller.signal,
  });
  await waitFor(() => stdout.includes('listening on'), 'the receiver to listen');
}, 60_000);

afterAll(async () => {
  controller.abort();
  expect(await listening).toBe(0);
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
  expect(stdout + stderr).not.toContain(SECRET);
});

const reportFiles = async () => (await readdir(dir)).filter((f) => f.endsWith('.xlsx') || f.endsWith('.html')).sort();
const mtimes = async () => Promise.all((await reportFiles()).map(async (f) => [f, (await stat(join(dir, f))).mtimeMs] as const));

describe('brandscape webhooks listen', () => {
  it('rebuilds the touched report when the emulator publishes a study, with its data', async () => {
    const outcome = await emulator.publish({ kind: 'study' });
    expect(outcome.records[0]?.id).toBe(newStudy.id);
    await outcome.delivered;
    const delivery = emulator.webhooks[0]?.deliveries.at(-1);
    expect(delivery?.delivered).toBe(true);
    expect(delivery?.attempts.map((a) => a.outcome)).toEqual([200]);
    await waitFor(() => stdout.includes('rebuilt'), 'the rebuild');
    const files = await reportFiles();
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith('touched-'))).toBe(true);
    const state = JSON.parse(await readFile(join(dir, '.touched.last-run.json'), 'utf8')) as { studies: { id: number }[] };
    expect(state.studies.map((s) => s.id)).toContain(newStudy.id);
    const html = await readFile(join(dir, files.find((f) => f.endsWith('.html')) ?? ''), 'utf8');
    expect(html).toContain(String(newStudy.year));
    // The other template's market has no new study: not rebuilt.
    expect((await readdir(dir)).some((f) => f.startsWith('.untouched'))).toBe(false);
    expect(stdout).toMatch(new RegExp(`study ${newStudy.id} \\(${newStudy.code} ${newStudy.year}\\) rebuilt touched`));
  }, 120_000);

  it('refuses forged and stale deliveries and ignores a replay: nothing changes', async () => {
    const before = await mtimes();
    const now = Math.floor(Date.now() / 1000);
    const forgedBody = eventBody(newStudy.id, now);
    const forged = await post(forgedBody, signWebhookBody('not-the-secret', forgedBody));
    expect(forged.status).toBe(401);
    const tampered = await post(eventBody(newStudy.id, now), signWebhookBody(SECRET, forgedBody));
    expect(tampered.status).toBe(401);
    const staleBody = eventBody(newStudy.id, now - 120);
    const stale = await post(staleBody, signWebhookBody(SECRET, staleBody));
    expect(stale.status).toBe(400);
    // A valid event about a study no template reads, then the same delivery again.
    const gbStudy = emulator.dataset.studies.find((s) => s.released && s.countryId !== emulator.dataset.studies.find((x) => x.record.id === newStudy.id)?.countryId && s.yearNumber === 2019);
    const body = eventBody(gbStudy?.record.id ?? 1, now);
    expect((await post(body, signWebhookBody(SECRET, body))).status).toBe(200);
    expect((await post(body, signWebhookBody(SECRET, body))).status).toBe(200);
    await waitFor(() => stdout.includes('nothing rebuilt'), 'the valid event to be processed');
    expect(stdout).toMatch(/ignored, webhook .* was delivered before/);
    expect(stdout.match(/rejected/g)?.length).toBe(3);
    expect(await mtimes()).toEqual(before);
  }, 60_000);
});
