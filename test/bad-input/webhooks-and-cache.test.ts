/**
 * The bad-input catalogue, the webhook receiver and the on-disk cache (issue 25), probed as an
 * attacker would.
 *
 * Receiver: every delivery below is refused with the HTTP status it names and a fragment of its
 * answer; afterwards no event was queued, the secret appears in no answer or log line, and a
 * good delivery is still accepted (the receiver goes on). Raw sockets where the exact bytes matter
 * (a declared 100 MB body, a body or headers that trickle in, headers over 16 KB).
 *
 * Cache: a client with `cache: { dir, ttlMs }` against the emulator; after one load the entry is
 * damaged, truncated, replaced by a link, a FIFO, a folder, another user's file, a forged one...
 * The next load must give the service's answer (a miss, never an exception, never the planted or
 * stale data), and the entry is replaced by a good one where that is possible.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Emulator } from '../../src/emulator/index.js';
import { createWebhookReceiver, type WebhookReceiver } from '../../src/webhooks/webhook-receiver.js';
import { verifyWebhook, type WebhookEvent } from '../../src/webhooks/verify-webhook.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';

const SECRET = 'LEAKCHECK-whsec-5d1e-SeCrEt';
const TOKEN = 'LEAKCHECK-cache-81fa-SeCrEt';
let receiver: WebhookReceiver;
let port: number;
const events: WebhookEvent[] = [];
const log: string[] = [];
const answers: string[] = [];
let emulator: Emulator;

beforeAll(async () => {
  // A short time limit, so that the slow-sender cases end quickly (the default is 10 s).
  receiver = await createWebhookReceiver({ secret: SECRET, port: 0, onEvent: async (e) => void events.push(e), log: (line) => log.push(line), timeoutMs: 600, maxConnections: 8 });
  port = Number(new URL(receiver.url).port);
  emulator = await startEmulator({ tokens: [TOKEN] });
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await emulator?.close();
  for (const text of [...log, ...answers]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
  }
});

const sign = (body: string | Buffer, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
const eventBody = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ action: 'update', data: { id: 558 }, type: 'Study', webhookTimestamp: Math.floor(Date.now() / 1000), webhookId: randomUUID(), ...fields });

async function post(body: string | Buffer, headers: Record<string, string>, method = 'POST') {
  const res = await fetch(receiver.url, { method, headers: { 'BAV-Delivery': randomUUID(), ...headers }, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, text };
}

/** Raw bytes over a socket; resolves with everything the receiver sent back before it closed (or `waitMs` passed). */
function raw(write: (socket: Socket) => void, waitMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      answers.push(got);
      resolve(got);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => (got += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
    socket.on('connect', () => write(socket));
  });
}

const json = { 'Content-Type': 'application/json' };
/** A body POSTed as the service would, signed with the right secret. */
const postSigned = (body: string) => post(body, signed(body));
const signed = (body: string | Buffer) => ({ ...json, 'BAV-Signature': sign(body) });
const goodBody = eventBody();

interface DeliveryCase {
  name: string;
  send: () => Promise<{ status: number; text: string }>;
  status: number;
  says: RegExp;
}

const statusOf = (response: string) => ({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0), text: response });

const DELIVERIES: DeliveryCase[] = [
  // Before the body is read
  { name: 'GET', send: () => post('', {}, 'GET'), status: 405, says: /Webhooks are POSTed/ },
  { name: 'PUT with a signed body', send: () => post(goodBody, signed(goodBody), 'PUT'), status: 405, says: /Webhooks are POSTed/ },
  { name: 'a signed body as text/plain', send: () => post(goodBody, { 'Content-Type': 'text/plain', 'BAV-Signature': sign(goodBody) }), status: 415, says: /sent as application\/json, not text\/plain/ },
  { name: 'a form', send: () => post('a=1', { 'Content-Type': 'application/x-www-form-urlencoded', 'BAV-Signature': sign('a=1') }), status: 415, says: /not application\/x-www-form-urlencoded/ },
  { name: 'multipart', send: () => post('--x--', { 'Content-Type': 'multipart/form-data; boundary=x' }), status: 415, says: /not multipart\/form-data/ },
  { name: 'no Content-Type', send: () => statusOfRaw(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${goodBody.length}\r\nBAV-Signature: ${sign(goodBody)}\r\n\r\n${goodBody}`), status: 415, says: /the Content-Type header is missing/ },
  { name: 'a gzip-encoded body', send: () => post(goodBody, { ...signed(goodBody), 'Content-Encoding': 'gzip' }), status: 415, says: /not compressed/ },
  { name: 'a declared body of 100 MB (none sent): refused at once', send: () => statusOfRaw(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`), status: 413, says: /Body too large: at most 1000000 bytes/ },
  { name: 'a chunked body past 1 MB: refused as it passes the limit', send: () => statusOfRaw(chunked(1_200_000)), status: 413, says: /Body too large/ },
  { name: 'a body that trickles in (slowloris)', send: () => trickle(), status: 408, says: /The body did not arrive within 0\.6 s/ },
  { name: 'headers that never end (slowloris)', send: async () => statusOf(await raw((s) => s.write('POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Slow: 1\r\n'))), status: 408, says: /Request Timeout/ },
  { name: 'headers of 64 KB', send: async () => statusOf(await raw((s) => s.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`))), status: 431, says: /Request Header Fields Too Large/ },
  // The signature
  { name: 'no BAV-Signature', send: () => post(goodBody, json), status: 401, says: /no BAV-Signature header/ },
  { name: 'a signature one character short', send: () => post(goodBody, { ...json, 'BAV-Signature': sign(goodBody).slice(1) }), status: 401, says: /BAV-Signature does not match the body/ },
  { name: 'the right HMAC in base64', send: () => post(goodBody, { ...json, 'BAV-Signature': createHmac('sha256', SECRET).update(goodBody).digest('base64') }), status: 401, says: /does not match/ },
  { name: "the right HMAC with a 'sha256=' prefix", send: () => post(goodBody, { ...json, 'BAV-Signature': `sha256=${sign(goodBody)}` }), status: 401, says: /does not match/ },
  { name: 'the right signature twice (two headers)', send: () => statusOfRaw(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${goodBody.length}\r\nBAV-Signature: ${sign(goodBody)}\r\nBAV-Signature: ${sign(goodBody)}\r\n\r\n${goodBody}`), status: 401, says: /does not match/ },
  { name: 'a signature of 10,000 characters', send: () => post(goodBody, { ...json, 'BAV-Signature': 'a'.repeat(10_000) }), status: 401, says: /does not match/ },
  { name: 'a signature of 64 non-hex characters', send: () => post(goodBody, { ...json, 'BAV-Signature': 'z'.repeat(64) }), status: 401, says: /does not match/ },
  { name: 'a signature made with another secret', send: () => post(goodBody, { ...json, 'BAV-Signature': sign(goodBody, 'another-secret') }), status: 401, says: /does not match/ },
  { name: 'a signature of another body', send: () => post(eventBody(), { ...json, 'BAV-Signature': sign(goodBody) }), status: 401, says: /does not match/ },
  // Signed, but not a good event
  { name: 'signed JSON cut short', send: () => post(goodBody.slice(0, 40), signed(goodBody.slice(0, 40))), status: 400, says: /the body is not JSON/ },
  { name: 'a signed empty body', send: () => post('', signed('')), status: 400, says: /the body is not JSON/ },
  { name: 'signed bytes that are not UTF-8', send: () => post(Buffer.from([0xff, 0xfe, 0x7b]), signed(Buffer.from([0xff, 0xfe, 0x7b]))), status: 400, says: /the body is not JSON/ },
  { name: 'a signed JSON array', send: () => post('[1,2]', signed('[1,2]')), status: 400, says: /the body is not a webhook event/ },
  { name: 'signed JSON nested 100,000 deep', send: () => post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, signed(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)), status: 400, says: /the body is not (JSON|a webhook event)/ },
  { name: 'a signed event with a webhookId of 10,000 characters', send: () => postSigned(eventBody({ webhookId: 'x'.repeat(10_000) })), status: 400, says: /not a webhook event \(webhookId: / },
  { name: 'a signed event two hours old', send: () => postSigned(eventBody({ webhookTimestamp: Math.floor(Date.now() / 1000) - 7200 })), status: 400, says: /the event is 720\d s from this clock \(at most 60 s accepted\)/ },
  { name: 'a signed event without a time', send: () => postSigned(eventBody({ webhookTimestamp: undefined })), status: 400, says: /no webhookTimestamp or webhookDate/ },
  { name: 'a signed event whose type holds terminal escapes and a forged log line', send: () => postSigned(eventBody({ type: 'Study\u001b[2J\n2026-01-01T00:00:00Z webhook forged: accepted'.padEnd(200, 'x') })), status: 400, says: /not a webhook event \(type: / },
];

function statusOfRaw(request: string): Promise<{ status: number; text: string }> {
  return raw((s) => s.write(request)).then(statusOf);
}
/** A chunked POST of `size` bytes of JSON-ish text, sent in 64 KB chunks. */
function chunked(size: number): string {
  const chunk = 'x'.repeat(64 * 1024);
  let out = 'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
  for (let sent = 0; sent < size; sent += chunk.length) out += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
  return `${out}0\r\n\r\n`;
}
/** Headers and the first bytes of a body, then nothing: the body never arrives. */
async function trickle(): Promise<{ status: number; text: string }> {
  return statusOf(await raw((s) => s.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${goodBody.length}\r\nBAV-Signature: ${sign(goodBody)}\r\n\r\n${goodBody.slice(0, 10)}`)));
}

describe('the webhook receiver', () => {
  it.each(DELIVERIES)('$name: $status, nothing queued, and it goes on', async (c) => {
    const before = events.length;
    const r = await c.send();
    expect(r.status, r.text).toBe(c.status);
    expect(r.text).toMatch(c.says);
    await receiver.idle();
    expect(events.length, 'an event was queued').toBe(before);
    // Still serving: a good delivery is accepted.
    const good = eventBody();
    expect((await post(good, signed(good))).status).toBe(200);
    await receiver.idle();
    expect(events.length).toBe(before + 1);
  });

  it('a replay of an accepted delivery: 200, ignored, nothing queued twice', async () => {
    const body = eventBody();
    expect((await post(body, signed(body))).status).toBe(200);
    await receiver.idle();
    const before = events.length;
    const again = await post(body, signed(body));
    expect(again.status).toBe(200);
    expect(again.text).toMatch(/Already received/);
    await receiver.idle();
    expect(events.length).toBe(before);
  });

  it('connections past maxConnections are closed; idle ones are dropped after the time limit; then deliveries are accepted again', async () => {
    // Flowing (resume): a paused socket would never see the receiver close it.
    const idle = Array.from({ length: 8 }, () => connect(port, '127.0.0.1').resume());
    await Promise.all(idle.map((s) => new Promise((resolve) => s.once('connect', resolve))));
    await new Promise((r) => setTimeout(r, 50));
    // The ninth: closed by the receiver without an answer.
    expect(await raw((s) => s.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`))).toBe('');
    // The idle ones are dropped (408) within the time limit, and the receiver serves again.
    await Promise.all(idle.map((s) => new Promise((resolve) => (s.destroyed ? resolve(null) : s.once('close', resolve)))));
    const good = eventBody();
    expect((await post(good, signed(good))).status).toBe(200);
  }, 20_000);

  it('log lines carry no secret, no raw control characters of the sender, and name the refusals', () => {
    expect(log.some((l) => /refused \(413\)/.test(l))).toBe(true);
    expect(log.some((l) => /refused \(408\)/.test(l))).toBe(true);
    expect(log.some((l) => /rejected, BAV-Signature does not match/.test(l))).toBe(true);
    for (const line of log) expect(line).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a receiver without a secret or with a time limit of NaN, and a body that is not bytes: UsageErrors', async () => {
    await expect(createWebhookReceiver({ secret: ' ', onEvent: async () => {}, log: () => {} })).rejects.toThrow(/createWebhookReceiver needs the webhook secret/);
    await expect(createWebhookReceiver({ secret: SECRET, timeoutMs: Number.NaN, onEvent: async () => {}, log: () => {} })).rejects.toThrow(/timeoutMs must be a whole number of 1 or more; got NaN/);
    await expect(createWebhookReceiver({ secret: SECRET, maxBodyBytes: -1, onEvent: async () => {}, log: () => {} })).rejects.toThrow(/maxBodyBytes must be a whole number of 1 or more; got -1/);
    expect(() => verifyWebhook(JSON.parse(goodBody) as Uint8Array, sign(goodBody), { secret: SECRET, seen: { has: () => false, add: () => {} } })).toThrow(/checks the raw body as bytes/);
    expect(() => verifyWebhook(Buffer.from(goodBody), sign(goodBody), { secret: '', seen: { has: () => false, add: () => {} } })).toThrow(/needs the webhook secret/);
  });
});

// ---------------------------------------------------------------------------------------------
// The on-disk cache

/** A fresh cache folder, a client on it, and the one entry a first page left there. */
async function cachedOnce(ttlMs = 60_000) {
  const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-cache-'));
  const { client, events: transport } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs } });
  const first = await client.regions.page({ perPage: 5 });
  const [name] = readdirSync(dir);
  return { dir, client, transport, first, entry: join(dir, name!) };
}

const fresh = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} }).regions.page({ perPage: 5 });
const isRoot = process.getuid?.() === 0;

interface CacheCase {
  name: string;
  /** Damages the entry (the dir holds only it). */
  damage: (entry: string, dir: string) => Promise<void>;
  /** After the next load: the entry is a good one again (false where it cannot be replaced). */
  replaced?: boolean;
  skip?: boolean;
}

const header = (entry: string) => JSON.parse(readFileSync(entry, 'utf8').split('\n', 1)[0]!) as { key: string; storedAt: number; loadId: string };
const bodyOf = (entry: string) => readFileSync(entry, 'utf8').split('\n').slice(1).join('\n');

const CACHE_CASES: CacheCase[] = [
  { name: 'random bytes', damage: (e) => writeFile(e, Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 131) % 256))) },
  { name: 'an empty file', damage: (e) => writeFile(e, '') },
  { name: 'a header cut short (no newline)', damage: async (e) => writeFile(e, readFileSync(e, 'utf8').slice(0, 30)) },
  { name: 'the body cut in half (header intact)', damage: async (e) => writeFile(e, readFileSync(e, 'utf8').slice(0, readFileSync(e, 'utf8').length / 2)) },
  { name: 'a body of valid JSON of the wrong shape', damage: async (e) => writeFile(e, `${JSON.stringify(header(e))}\n{"data": 5}`) },
  { name: "another entry's file under this entry's name", damage: async (e) => writeFile(e, `${JSON.stringify({ ...header(e), key: header(e).key.replace('per_page=5', 'per_page=6') })}\n${bodyOf(e)}`) },
  { name: 'planted data stored in the future (it would never expire)', damage: async (e) => writeFile(e, `${JSON.stringify({ ...header(e), storedAt: Date.now() + 86_400_000 })}\n${bodyOf(e).replaceAll('"name":"', '"name":"PLANTED ')}`) },
  { name: 'an entry past its time-to-live', damage: async (e) => writeFile(e, `${JSON.stringify({ ...header(e), storedAt: Date.now() - 3_600_000 })}\n${bodyOf(e).replaceAll('"name":"', '"name":"STALE ')}`) },
  { name: 'a symbolic link to a planted copy elsewhere', damage: async (e, dir) => { await mkdir(join(dir, 'elsewhere')); const planted = join(dir, 'elsewhere', 'planted.json'); await writeFile(planted, readFileSync(e, 'utf8').replaceAll('"name":"', '"name":"PLANTED ')); await rm(e); await symlink(planted, e); } },
  { name: 'a symbolic link to a FIFO (a read would hang)', damage: async (e, dir) => { execFileSync('mkfifo', [join(dir, 'pipe')]); await rm(e); await symlink(join(dir, 'pipe'), e); } },
  { name: 'a FIFO (a read would hang)', damage: async (e) => { await rm(e); execFileSync('mkfifo', [e]); } },
  { name: 'a link to a device that never ends (/dev/zero)', damage: async (e) => { await rm(e); await symlink('/dev/zero', e); } },
  { name: 'an empty folder', damage: async (e) => { await rm(e); await mkdir(e); } },
  { name: 'a folder with a file in it (cannot be replaced)', damage: async (e) => { await rm(e); await mkdir(e); await writeFile(join(e, 'x'), 'x'); }, replaced: false },
  { name: 'a file of 200 MB (sparse)', damage: (e) => truncate(e, 200 * 2 ** 20) },
  { name: 'a file anyone may write', damage: async (e) => { await writeFile(e, readFileSync(e, 'utf8').replaceAll('"name":"', '"name":"PLANTED ')); chmodSync(e, 0o666); } },
  { name: "another user's file", damage: async (e) => { await writeFile(e, readFileSync(e, 'utf8').replaceAll('"name":"', '"name":"PLANTED ')); chownSync(e, 65534, 65534); }, skip: !isRoot },
];

describe('the on-disk cache', () => {
  it.each(CACHE_CASES)('$name: a miss, the service answer, no exception, and the entry replaced', async (c) => {
    if (c.skip) return; // chown needs root
    const { dir, client, transport, first, entry } = await cachedOnce();
    expect(first.records).toEqual((await fresh()).records);
    await c.damage(entry, dir);
    emulator.clearRequests();
    const again = await client.regions.page({ perPage: 5 });
    expect(again.records).toEqual(first.records);
    expect(JSON.stringify(again.records)).not.toMatch(/PLANTED|STALE/);
    expect(emulator.requests.filter((r) => r.path.endsWith('/regions')), 'the page came from the service').toHaveLength(1);
    expect(transport.some((e) => e.type === 'cache-hit' && transport.indexOf(e) > 0)).toBe(false);
    if (c.replaced !== false) {
      // A regular file of this user's again, readable by no one else, that the next load hits.
      const info = lstatSync(entry);
      expect(info.isFile()).toBe(true);
      expect(info.mode & 0o077).toBe(0);
      emulator.clearRequests();
      expect((await client.regions.page({ perPage: 5 })).records).toEqual(first.records);
      expect(emulator.requests).toHaveLength(0);
    } else {
      expect(statSync(entry).isDirectory()).toBe(true);
      expect(transport.some((e) => e.type === 'cache-error')).toBe(true);
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    if (c.replaced !== false) expect(readFileSync(entry, 'utf8')).not.toContain(TOKEN);
    await rm(dir, { recursive: true, force: true });
  }, 20_000);

  it('a cache folder that is a file: every load still works, the failures are events, not exceptions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-cache-'));
    await writeFile(join(dir, 'not-a-folder'), 'x');
    const { client, events: transport } = recordingClient(emulator, { token: TOKEN, cache: { dir: join(dir, 'not-a-folder'), ttlMs: 60_000 } });
    expect((await client.regions.page({ perPage: 5 })).records).toEqual((await fresh()).records);
    expect(transport.some((e) => e.type === 'cache-error' && /could not be stored/.test(e.message))).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a time-to-live that is not a number', { dir: 'c', ttlMs: Number.NaN }, /cache\.ttlMs must be a number from 0 to \d+ ms; got NaN/],
    ['a negative time-to-live', { dir: 'c', ttlMs: -1 }, /cache\.ttlMs must be a number from 0/],
    ['an empty folder name', { dir: '', ttlMs: 1000 }, /cache\.dir must be the path of a folder; got ""/],
  ])('%s: a UsageError at createClient', (_name, cache, says) => {
    expect(() => createClient({ baseUrl: emulator.url, token: TOKEN, env: {}, cache })).toThrow(says);
  });

  it('a page of a cached load damaged between two loads: the whole load comes from the service, no mix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-cache-'));
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    const first = await client.brands.all({ perPage: 100 });
    const page2 = readdirSync(dir).find((f) => readFileSync(join(dir, f), 'utf8').split('\n', 1)[0]?.includes('page=2&'))!;
    await writeFile(join(dir, page2), 'garbage');
    emulator.clearRequests();
    expect(await client.brands.all({ perPage: 100 })).toEqual(first);
    expect(emulator.requests.filter((r) => r.path.endsWith('/brands')).length).toBe(Math.ceil(first.length / 100));
    expect(await readFile(join(dir, page2), 'utf8')).not.toBe('garbage');
    await rm(dir, { recursive: true, force: true });
  });
});
