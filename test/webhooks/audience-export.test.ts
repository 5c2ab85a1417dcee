/**
 * The toolkit as an audience export destination, end to end: the emulator exports an audience in
 * each of the four formats to `brandscape webhooks listen --audiences-to DIR`, which verifies each
 * delivery and writes the definition as JSON and the respondents as CSV and Parquet; the files are
 * read back with `loadAudienceExport` and, independently, with DuckDB. A forged, a replayed, a
 * malformed and a too large export leave nothing; a delivery written before (the receiver
 * restarted) writes nothing twice.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createDataset, createEmulator, signWebhookBody, type AudienceExportFormat, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';
import { loadAudienceExport } from '../../src/webhooks/load-audience-export.js';
import { createWebhookReceiver } from '../../src/webhooks/webhook-receiver.js';

const SECRET = 'whsec-audiences-7d1e-test';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let emulator: Emulator;
let dir: string;
let audiences: string;
let port: number;
let stdout = '';
let stderr = '';
let duck: DuckDBConnection;
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

async function waitFor(test: () => boolean, what: string, ms = 60_000) {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}. stdout:\n${stdout}\nstderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const quoted = (path: string) => `'${path.replaceAll("'", "''")}'`;
const files = async () => (await readdir(audiences)).sort();
const snapshot = async () => Promise.all((await files()).map(async (f) => [f, (await stat(join(audiences, f))).mtimeMs] as const));

/** An export body as the emulator sends it, made by hand (to replay, forge and break it). */
const exportBody = (format: string, data: Record<string, unknown>, at = Math.floor(Date.now() / 1000), id = randomUUID()) =>
  JSON.stringify({ type: 'Audience Export', format, data, url: `https://fount.wppbav.com/audiences/${String(data['id'])}`, webhookDate: new Date(at * 1000).toISOString().replace('.000Z', 'Z'), webhookTimestamp: at, webhookId: id });

const slimAudience = (id: number, respondents: unknown[]) => ({
  id,
  name: 'Hand-made',
  description: 'An audience made by the test',
  is_active: true,
  is_public: false,
  is_standard: false,
  deployed_at: '2025-01-01T00:00:00Z',
  segments_updated_at: '2025-01-01T00:00:00Z',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  group: { id: 8, name: 'Custom' },
  user: { id: 7, name: 'Example User', email: 'user@example.com', operating_company: { id: 1, name: 'WPP' } },
  respondents,
});

const post = (url: string, body: string, signature: string) =>
  fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'BAV-Event': 'Audience Export', 'BAV-Delivery': randomUUID(), 'BAV-Signature': signature } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-audiences-'));
  audiences = join(dir, 'audiences');
  await mkdir(audiences);
  port = await freePort();
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  emulator = await createEmulator({ port: 0, dataset: createDataset({ seed: 6, brands: 300 }), webhooks: [{ url: `http://127.0.0.1:${port}/hooks`, secret: SECRET, events: ['Audience Export'] }], webhookRetryDelaysMs: [100, 200] });
  // No service is configured: a receiver of exports alone reads none.
  listening = run(['webhooks', 'listen', '--port', String(port), '--secret-env', 'WH_SECRET', '--audiences-to', 'audiences'], {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    env: { WH_SECRET: SECRET },
    cwd: dir,
    signal: controller.signal,
  });
  await waitFor(() => stdout.includes('listening on'), 'the receiver to listen');
}, 60_000);

afterAll(async () => {
  controller.abort();
  expect(await listening).toBe(0);
  duck?.closeSync();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
  expect(stdout + stderr).not.toContain(SECRET);
});

describe('brandscape webhooks listen --audiences-to', () => {
  it('says what it writes where, and needs no service', () => {
    expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ for webhooks; writing audience exports into audiences/);
    expect(stderr).toBe('');
  });

  const respondentFormats: [AudienceExportFormat, number, RegExp][] = [
    ['bav_respondent_ids', 2, UUID_V4],
    ['audience_origin_respondent_ids', 4, UUID_V4],
    ['audience_origin_progressive_numbers', 5, /^\d+_\d+x_\d+$/],
  ];
  for (const [format, audienceId, pattern] of respondentFormats) {
    it(`writes a ${format} export as JSON, CSV and Parquet, read back by loadAudienceExport and DuckDB`, async () => {
      const outcome = await emulator.exportAudience({ audienceId, format });
      await outcome.delivered;
      expect(emulator.webhooks[0]?.deliveries.at(-1)?.attempts.map((a) => a.outcome)).toEqual([200]);
      await waitFor(() => stdout.includes(`webhook ${outcome.webhookId}: audience ${audienceId} (${format}, ${outcome.respondents} respondents) written`), 'the export to be written');
      const names = (await files()).filter((f) => f.startsWith(`audience-${audienceId}-`));
      expect(names).toHaveLength(3);
      const base = names.find((f) => f.endsWith('.json'))!.replace(/\.json$/, '');
      expect(base).toMatch(new RegExp(`^audience-${audienceId}-\\d{8}T\\d{6}Z$`));
      expect(names.sort()).toEqual([`${base}.csv`, `${base}.json`, `${base}.parquet`]);

      const table = await loadAudienceExport(join(audiences, `${base}.parquet`));
      expect(table.length).toBe(outcome.respondents);
      expect(table.columnNames).toEqual(['audience_id', 'format', 'respondent_id']);
      expect(table.meta).toMatchObject({ audienceId, format, webhookId: outcome.webhookId, source: 'loadAudienceExport' });
      expect(table.meta.audience).toMatchObject({ id: audienceId, is_standard: true });
      expect(table.meta.audience).not.toHaveProperty('respondents');
      const ids = table.values('respondent_id') as string[];
      expect(ids.every((id) => pattern.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);

      // An independent reader of both data files: the same rows, in the same order.
      const parquet = (await duck.runAndReadAll(`SELECT * FROM ${quoted(join(audiences, `${base}.parquet`))}`)).getRowObjectsJS();
      const csv = (await duck.runAndReadAll(`SELECT * FROM read_csv(${quoted(join(audiences, `${base}.csv`))}, header = true, all_varchar = true)`)).getRowObjectsJS();
      expect(parquet).toEqual(table.rows());
      expect(csv).toEqual(table.rows().map((r) => ({ ...r, audience_id: String(r.audience_id) })));
      const record = JSON.parse(await readFile(join(audiences, `${base}.json`), 'utf8')) as { export: Record<string, unknown> };
      expect(record.export).toEqual({ format, exported_at: expect.stringMatching(/Z$/), webhook_id: outcome.webhookId, respondents: outcome.respondents, files: { csv: `${base}.csv`, parquet: `${base}.parquet` } });
    }, 60_000);
  }

  it('writes a definition export (format 1) as JSON only; its table is empty, the definition in meta', async () => {
    const outcome = await emulator.exportAudience({ audienceId: 20, format: 'audience_definition' });
    await outcome.delivered;
    await waitFor(() => stdout.includes(`webhook ${outcome.webhookId}: audience 20 (audience_definition) written`), 'the definition to be written');
    const names = (await files()).filter((f) => f.startsWith('audience-20-'));
    expect(names).toHaveLength(1);
    const table = await loadAudienceExport(join(audiences, names[0]!));
    expect(table.length).toBe(0);
    expect(table.columnNames).toEqual(['audience_id', 'format', 'respondent_id']);
    expect(table.meta.audience).toMatchObject({ id: 20, name: 'Urban Professionals', logic: '1 AND 2 AND 3' });
    expect(table.meta.notes[0]).toMatch(/no respondents/);
  }, 60_000);

  it('refuses a forged, a malformed and a replayed export: nothing is written for them', async () => {
    const url = `http://127.0.0.1:${port}/hooks`;
    const respondents = [randomUUID(), randomUUID()];
    const before = await snapshot();
    const forged = exportBody('bav_respondent_ids', slimAudience(31, respondents));
    expect((await post(url, forged, signWebhookBody('not-the-secret', forged))).status).toBe(401);
    const notUuid = exportBody('bav_respondent_ids', slimAudience(32, [respondents[0], '=HYPERLINK("x")']));
    const refused = await post(url, notUuid, signWebhookBody(SECRET, notUuid));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('respondent 2 is not a UUID v4');
    const twice = exportBody('bav_respondent_ids', slimAudience(33, [respondents[0], respondents[0]]));
    expect((await post(url, twice, signWebhookBody(SECRET, twice))).status).toBe(400);
    const noFormat = exportBody('spreadsheet', slimAudience(34, respondents));
    expect((await post(url, noFormat, signWebhookBody(SECRET, noFormat))).status).toBe(400);
    const noRespondents = JSON.stringify({ ...JSON.parse(exportBody('bav_respondent_ids', slimAudience(35, []))), data: { id: 35 } });
    expect((await post(url, noRespondents, signWebhookBody(SECRET, noRespondents))).status).toBe(400);
    expect(await snapshot()).toEqual(before);

    // A good export, then the very same delivery again: written once.
    const good = exportBody('bav_respondent_ids', slimAudience(36, respondents));
    expect((await post(url, good, signWebhookBody(SECRET, good))).status).toBe(200);
    await waitFor(() => /audience 36 \(bav_respondent_ids, 2 respondents\) written/.test(stdout), 'the good export');
    const written = await snapshot();
    expect(written.filter(([f]) => f.startsWith('audience-36-'))).toHaveLength(3);
    expect((await post(url, good, signWebhookBody(SECRET, good))).status).toBe(200);
    await waitFor(() => /ignored, webhook .* was delivered before/.test(stdout), 'the replay to be ignored');
    expect(await snapshot()).toEqual(written);
    expect(stdout.match(/rejected/g)?.length).toBe(5);
    expect((await readdir(audiences)).some((f) => f.includes('.partial'))).toBe(false);
  }, 60_000);

  it('writes nothing twice when a restarted receiver gets a delivery it wrote before', async () => {
    const respondents = [randomUUID(), randomUUID(), randomUUID()];
    const body = exportBody('bav_respondent_ids', slimAudience(37, respondents));
    const lines: string[] = [];
    for (const round of [1, 2]) {
      const receiver = await createWebhookReceiver({ secret: SECRET, port: 0, audiencesTo: audiences, log: (l) => lines.push(l) });
      try {
        expect((await post(receiver.url, body, signWebhookBody(SECRET, body))).status).toBe(200);
        await receiver.idle();
      } finally {
        await receiver.close();
      }
      expect(lines.at(-1)).toMatch(round === 1 ? /written: audience-37-\S+\.json/ : /was written before \(audience-37-\S+\.json\); nothing written/);
    }
    const table = await loadAudienceExport(join(audiences, (await files()).find((f) => f.startsWith('audience-37-') && f.endsWith('.csv'))!));
    expect(table.values('respondent_id')).toEqual(respondents);
  });

  it('refuses an export larger than the receiver takes; the emulator retries, then gives up; nothing is written', async () => {
    const small = join(dir, 'small');
    await mkdir(small);
    const lines: string[] = [];
    const receiver = await createWebhookReceiver({ secret: SECRET, port: 0, audiencesTo: small, maxBodyBytes: 4_000, log: (l) => lines.push(l) });
    const sender = await createEmulator({ port: 0, dataset: emulator.dataset, webhooks: [{ url: receiver.url, secret: SECRET }], webhookRetryDelaysMs: [20] });
    try {
      await (await sender.exportAudience({ audienceId: 1, format: 'bav_respondent_ids' })).delivered;
      const attempts = sender.webhooks[0]?.deliveries[0]?.attempts ?? [];
      expect(attempts).toHaveLength(2);
      expect(attempts.every((a) => a.outcome !== 200)).toBe(true);
      expect(lines.some((l) => l.includes('refused (413)') && l.includes('at most 4000 bytes'))).toBe(true);
      expect(await readdir(small)).toEqual([]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it('checks its folder and its options before listening (exit 2)', async () => {
    const io = { stdout: { write: (_: string) => true }, stderr: { write: (c: string) => (err += c) }, env: { WH_SECRET: SECRET }, cwd: dir, signal: new AbortController().signal };
    let err = '';
    expect(await run(['webhooks', 'listen', '--port', '0', '--secret-env', 'WH_SECRET', '--audiences-to', 'missing'], io)).toBe(2);
    expect(err).toContain('--audiences-to missing');
    err = '';
    expect(await run(['webhooks', 'listen', '--port', '0', '--secret-env', 'WH_SECRET'], io)).toBe(2);
    expect(err).toContain('--audiences-to DIR');
    await expect(createWebhookReceiver({ secret: SECRET, log: () => {} })).rejects.toThrow(UsageError);
    await expect(loadAudienceExport(join(dir, 'nothing.json'))).rejects.toThrow(/is not an audience export/);
  });
});
