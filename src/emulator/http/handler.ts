/**
 * The emulated service's request pipeline: route, authenticate, rate-limit, inject faults, answer.
 * Everything the service documents about envelopes, errors and headers is applied here, once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESOURCES, type ResourceName, ARCHETYPES_TOOL } from '../../catalogue/endpoints.js';
import { PAGE_LIMITS, type ApiVersion } from '../../catalogue/page-limits.js';
import type { Dataset, PublishRequest } from '../dataset/types.js';
import type { WebhookSender } from '../webhooks.js';
import { fromExportBody, fromFaultBody, fromPublishBody, readAdminJson } from './admin-bodies.js';
import type { AudienceExportRequest } from '../audience-export.js';
import { ApiError, notFound } from './api-error.js';
import { getBrandscapeRow, listBrandscape } from './brandscape.js';
import { runArchetypes } from './archetypes.js';
import { AUTO_LOGIN_SCOPE, autoLogin } from './auto-login.js';
import { TOOLS, type ToolSlug } from '../../catalogue/tools.js';
import { BEST_COUNTRIES_DATA_SCOPE, bestCountriesData } from './best-countries-data.js';
import { runTool } from './tools.js';
import { BEST_COUNTRIES_RAW } from '../../catalogue/best-countries.js';
import { COUNTRY_INDICATORS } from '../../catalogue/country-indicators.js';
import { bestCountriesRaw, countryIndicators } from './hidden-endpoints.js';
import type { createAuth } from './auth.js';
import { bindingOf, type Ctx } from './bindings.js';
import type { Faults, FaultRule } from './faults.js';
import { hashUnit } from './hash.js';
import { createIndexes, type Indexes } from './indexes.js';
import { fromIdSegment, selectEntities, toServed, validateQuery } from './list-engine.js';
import { fromPageParams, toEnvelope, type LabelStyle } from './paging.js';
import { fromQuery } from './parse-query.js';
import type { BufferPool } from './json-bytes.js';
import { getStockPrice, listStockPrices } from './stock-prices.js';
import type { createRateLimiter } from './rate-limit.js';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string (without `?`). */
  query: string;
  status: number;
  /** The user the token acted as, if it was valid. */
  user: string | undefined;
  /** What went wrong on purpose, if a fault was injected. */
  fault: string | undefined;
  at: number;
  durationMs: number;
}

export interface HandlerState {
  ds: Dataset;
  idx: Indexes;
  seed: number;
  auth: ReturnType<typeof createAuth>;
  limiter: ReturnType<typeof createRateLimiter>;
  faults: Faults;
  webhooks: WebhookSender;
  latencyMs: number;
  jitterMs: number;
  labels: LabelStyle;
  carryQueryInLinks: boolean;
  strictParams: boolean;
  /** Send `X-RateLimit-Reset` on every answer, not only on 429 (the documented behaviour). */
  resetHeaderAlways: boolean;
  /** Base URL for `links`/`meta.path`; the server's own URL unless set. */
  publicUrl: () => string;
  requests: RecordedRequest[];
  maxRecorded: number;
  now: () => number;
  /** Sockets of requests left hanging by a fault, destroyed on close. */
  hanging: Set<IncomingMessage['socket']>;
  /** Buffers brandscape pages are written into, reused once the socket has taken a page. */
  pageBuffers: BufferPool;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  500: 'Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  429: 'Too Many Requests',
};

const OPEN_DATA = Buffer.from('{"data":');
const CLOSE = Buffer.from('}');

const errorJson = (version: ApiVersion, message: string) =>
  // v1 used `error`, v2 `message` (§8).
  JSON.stringify({ data: version === 'v1' ? { error: message } : { message } });

interface Answer {
  status: number;
  /** JSON text, or JSON bytes for answers written straight into bytes (brandscape pages). */
  body: string | Uint8Array;
  headers: Record<string, string>;
  fault?: FaultRule;
  /** Gives the body's memory back for reuse; called once the body has been handed to the socket. */
  release?: () => void;
}

/** Resolves `/<resource>[/<id>[/<sub>]]` to a catalogue resource. */
type Route =
  | { resource: ResourceName | 'archetypes'; id?: string; parentId?: string }
  | { resource: 'tool'; slug: ToolSlug }
  | { resource: 'best-countries-data'; segments: readonly string[] }
  | { resource: 'best-countries-raw'; segments: readonly string[] }
  | { resource: 'country-indicators'; countryId: string; yearId: string | undefined };

function route(segments: string[]): Route {
  const [first = '', second, third, ...rest] = segments;
  // `/best-countries/countries/raw/{year}` (§13.3), before the calculated data it would be read as.
  if (first === 'best-countries' && second === 'countries' && third === 'raw') return { resource: 'best-countries-raw', segments: segments.slice(3) };
  // `/best-countries/countries/{year}/{dataType}/{scoreType}` (§13.2).
  if (first === 'best-countries' && second === 'countries') return { resource: 'best-countries-data', segments: segments.slice(2) };
  // `/countries/{id}/indicators[/{yearId}]` (§11.12's sub-resources).
  if (first === 'countries' && second !== undefined && third === 'indicators' && rest.length <= 1) return { resource: 'country-indicators', countryId: second, yearId: rest[0] };
  if (rest.length > 0) throw notFound(`No route /${segments.join('/')}.`);
  if (first === 'tools' && second === 'archetypes' && third === undefined) return { resource: 'archetypes' };
  // Slugs go to the tools, numeric ids to their metadata (§11.21's routing note).
  if (first === 'tools' && second !== undefined && third === undefined && second in TOOLS) return { resource: 'tool', slug: second as ToolSlug };
  if (first === 'studies' && second !== undefined && third === 'brands') return { resource: 'study-brands', parentId: second };
  if (first === 'studies' && second !== undefined && third === 'categories') return { resource: 'study-categories', parentId: second };
  if (third !== undefined) throw notFound(`No route /${segments.join('/')}.`);
  const resource = (Object.keys(RESOURCES) as ResourceName[]).find((r) => RESOURCES[r].path === first);
  if (!resource || resource === 'study-brands' || resource === 'study-categories') throw notFound(`No resource '/${first}'.`);
  // `/brandscape-data/` (trailing slash) is the list, like `/brandscape-data` (§12.1).
  return second === undefined || second === '' ? { resource } : { resource, id: second };
}

function apiAnswer(state: HandlerState, version: ApiVersion, segments: string[], url: URL, user: string): Pick<Answer, 'status' | 'body' | 'release'> {
  const r = route(segments);
  const ctx: Ctx = { ds: state.ds, idx: state.idx, user };
  if (r.resource === 'tool' || r.resource === 'best-countries-data') {
    if (version === 'v1') throw notFound(`/${segments.join('/')} exists only in v2.`);
    const data = r.resource === 'tool' ? runTool(r.slug, url.searchParams, ctx, state.strictParams) : bestCountriesData(r.segments, url.searchParams, ctx, state.strictParams);
    return { status: 200, body: JSON.stringify(data) };
  }
  if (r.resource === 'best-countries-raw' || r.resource === 'country-indicators') {
    if (version === 'v1') throw notFound(`/${segments.join('/')} is emulated in v2 only.`);
    const envelope = { origin: state.publicUrl(), labels: state.labels, ...(state.carryQueryInLinks ? { carriedQuery: carriedQuery(url.searchParams) } : {}) };
    const data =
      r.resource === 'best-countries-raw'
        ? bestCountriesRaw(r.segments, url.searchParams, ctx, state.strictParams, envelope)
        : countryIndicators(r.countryId, r.yearId, url.searchParams, ctx, state.strictParams, envelope);
    return { status: 200, body: JSON.stringify(data) };
  }
  const fieldsKey = r.resource === 'archetypes' ? '' : RESOURCES[r.resource].fieldsKey;
  const query = fromQuery(url.searchParams, version, fieldsKey);
  if (r.resource === 'archetypes') {
    if (version === 'v1') throw notFound('The archetypes tool exists only in v2.');
    return { status: 200, body: JSON.stringify(runArchetypes(url.searchParams, ctx, state.strictParams)) };
  }
  const spec = RESOURCES[r.resource];
  const pageReq = fromPageParams(query.page, query.perPage, PAGE_LIMITS[version]);
  const origin = state.publicUrl();
  const basePath = r.parentId === undefined ? `/${spec.path}` : spec.path.replace('{id}', r.parentId);
  const envelopeOptions = {
    path: `${origin}/api/${version}${basePath}`,
    labels: state.labels,
    ...(state.carryQueryInLinks ? { carriedQuery: carriedQuery(url.searchParams) } : {}),
  };

  if (r.resource === 'brandscape-data') {
    if (r.id !== undefined) {
      const row = getBrandscapeRow(fromIdSegment(r.id, 'brandscape data row'), query, ctx, state.strictParams);
      return { status: 200, body: Buffer.concat([OPEN_DATA, row, CLOSE]) };
    }
    const { body, release } = listBrandscape(query, ctx, pageReq, state.strictParams, state.pageBuffers, (count, total) => {
      const { data: _data, ...rest } = toEnvelope(null, count, total, pageReq, envelopeOptions);
      return `,${JSON.stringify(rest).slice(1)}`;
    });
    return { status: 200, body, release };
  }
  if (r.resource === 'stock-prices') {
    if (r.id !== undefined) {
      return { status: 200, body: JSON.stringify({ data: getStockPrice(fromIdSegment(r.id, 'stock price'), query, ctx, state.strictParams) }) };
    }
    const page = listStockPrices(query, ctx, pageReq, state.strictParams);
    return { status: 200, body: JSON.stringify(toEnvelope(page.data, page.data.length, page.total, pageReq, envelopeOptions)) };
  }

  const binding = bindingOf(r.resource);
  if (!binding) throw notFound(`No resource '/${spec.path}'.`);
  if (r.parentId !== undefined) ctx.parentId = fromIdSegment(r.parentId, 'study');
  validateQuery(spec, query, { strictParams: state.strictParams });
  if (r.id !== undefined) {
    const entity = findOne(r.resource, r.id, version, binding.rows(ctx), state.idx);
    if (!entity) throw notFound(`No ${spec.path} record with id '${r.id}'.`);
    if (binding.access && binding.access(entity, ctx) === 'forbidden') {
      throw new ApiError(403, `You may not see ${spec.path} ${entity.record.id}: it is private to its owner.`);
    }
    return { status: 200, body: JSON.stringify({ data: toServed(spec, binding, entity, query, ctx) }) };
  }
  const rows = selectEntities(spec, binding, query, ctx);
  const start = (pageReq.page - 1) * pageReq.perPage;
  const data = rows.slice(start, start + pageReq.perPage).map((e) => toServed(spec, binding, e, query, ctx));
  return { status: 200, body: JSON.stringify(toEnvelope(data, data.length, rows.length, pageReq, envelopeOptions)) };
}

function findOne(resource: ResourceName, segment: string, version: ApiVersion, rows: readonly { record: { id: number } }[], idx: Indexes) {
  // v1 also accepted ISO alpha-2/alpha-3 codes for countries (§11.12).
  if (resource === 'countries' && version === 'v1' && /^[A-Za-z]{2,3}$/.test(segment)) return idx.countriesByCode.get(segment.toUpperCase());
  const id = fromIdSegment(segment, resource);
  return rows.find((e) => e.record.id === id);
}

/** The request's parameters other than `page`, in request order (the framework's order, §20). */
function carriedQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [k, v] of params) if (k !== 'page') kept.append(k, v);
  return kept.toString();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface AdminHooks {
  publish(request: PublishRequest): Promise<unknown>;
  /** Starts an audience export's delivery; answers what was sent (the delivery goes on meanwhile). */
  exportAudience(request: AudienceExportRequest): Promise<unknown>;
}

async function adminAnswer(state: HandlerState, req: IncomingMessage, path: string, hooks: AdminHooks): Promise<Answer> {
  const json = (status: number, value: unknown): Answer => ({ status, body: JSON.stringify(value), headers: {} });
  const sub = path.slice('/__emulator'.length);
  if (req.method === 'GET' && (sub === '' || sub === '/')) {
    return json(200, {
      emulator: 'brandscape-kit',
      seed: state.seed,
      as_of: state.ds.asOf,
      counts: { brands: state.ds.brands.length, studies: state.ds.studies.length, countries: state.ds.countries.length },
      endpoints: ['GET /__emulator/requests', 'POST /__emulator/publish', 'POST /__emulator/export-audience', 'POST /__emulator/faults', 'DELETE /__emulator/faults', 'GET /__emulator/webhooks'],
      // The service's MCP servers (Streamable HTTP, the token as a bearer key): see §23.3.
      mcp_servers: ['/v1/bav', '/v1/best-countries', '/v1/futures'],
    });
  }
  if (req.method === 'GET' && sub === '/requests') return json(200, { data: state.requests });
  if (req.method === 'GET' && sub === '/webhooks') {
    return json(200, { data: state.webhooks.subscriptions.map(({ secret: _secret, ...rest }) => rest) });
  }
  if (req.method === 'POST' && sub === '/publish') {
    const request = fromPublishBody(await readAdminJson(req));
    try {
      return json(200, await hooks.publish(request));
    } catch (error) {
      // Nothing left to release, or an unknown id: the request conflicts with the data's state.
      if (error instanceof RangeError) throw new ApiError(409, error.message);
      throw error;
    }
  }
  if (req.method === 'POST' && sub === '/export-audience') {
    return json(200, await hooks.exportAudience(fromExportBody(await readAdminJson(req))));
  }
  if (req.method === 'POST' && sub === '/faults') {
    const rules = fromFaultBody(await readAdminJson(req));
    for (const rule of rules) state.faults.add(rule);
    return json(200, { added: rules.length });
  }
  if (req.method === 'DELETE' && sub === '/faults') {
    state.faults.clear();
    return json(200, { cleared: true });
  }
  throw notFound(`No emulator admin route ${req.method ?? ''} ${path}.`);
}

function rateHeaders(state: HandlerState, decision: ReturnType<HandlerState['limiter']['hit']>): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
  };
  if (!decision.allowed || state.resetHeaderAlways) headers['X-RateLimit-Reset'] = String(decision.resetAt);
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterS);
  return headers;
}

/** Answers one request; never throws. */
export async function handle(state: HandlerState, req: IncomingMessage, res: ServerResponse, hooks: AdminHooks): Promise<void> {
  const started = state.now();
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const path = url.pathname;
  let version: ApiVersion = 'v2';
  let user: string | undefined;
  let answer: Answer;
  /** When an API request's answer is due (its latency after it arrived), 0 for none. */
  let due = 0;
  try {
    if (path === '/health' || path === '/api/v2/health') {
      // No token needed (§20); the timestamp has no fraction, like the documented example.
      answer = { status: 200, body: JSON.stringify({ status: 'ok', timestamp: new Date(state.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') }), headers: {} };
    } else if (path === '/api/v1/auto-login' && req.method === 'POST') {
      // The one documented non-GET call, and on the v1 path even in v2 (§1, §17.1).
      version = 'v1';
      const principal = state.auth.authenticate(req.headers.authorization);
      if (!principal) throw new ApiError(401, 'Unauthenticated.');
      user = principal.user;
      if (!principal.hasScope(AUTO_LOGIN_SCOPE)) throw new ApiError(401, `This token lacks the scope '${AUTO_LOGIN_SCOPE}'.`);
      const login = await autoLogin(req, (token, u) => state.auth.issueEmbedToken(token, u), state.seed, () => state.requests.length);
      answer = { status: 200, body: JSON.stringify(login), headers: {} };
    } else if (path === '/__emulator' || path.startsWith('/__emulator/')) {
      answer = await adminAnswer(state, req, path, hooks);
    } else {
      const match = /^\/api\/(v1|v2)(\/.*)?$/.exec(path);
      if (!match) throw notFound(`No route ${path}. The API lives under /api/v2/ (and /api/v1/).`);
      version = match[1] === 'v1' ? 'v1' : 'v2';
      const resourcePath = match[2] ?? '/';
      const n = state.requests.length + 1;
      // Latency is the time a request takes, as a service with more than one worker answers:
      // the work is done while the answer waits, and only what is left of the delay is slept.
      // (Sleeping first and then working one request at a time made 8 concurrent requests of
      // 1,000-row pages take the latency plus every other request's work: no client could reach
      // the latency.)
      const delay = state.latencyMs + (state.jitterMs > 0 ? (hashUnit(state.seed, 0x1a7e, n) * 2 - 1) * state.jitterMs : 0);
      if (delay > 0) due = started + delay;
      answer = await apiRequest(state, req, url, version, resourcePath, (u) => (user = u));
    }
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 500;
    const message = error instanceof ApiError ? error.message : 'Server Error';
    if (!(error instanceof ApiError)) process.stderr.write(`emulator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    answer = { status, body: errorJson(version, message), headers: error instanceof ApiError ? { ...error.headers } : {} };
  }
  const left = due - state.now();
  if (left > 0) await sleep(left);
  record(state, req, url, answer, user, started);
  await send(state, req, res, answer);
}

async function apiRequest(
  state: HandlerState,
  req: IncomingMessage,
  url: URL,
  version: ApiVersion,
  resourcePath: string,
  setUser: (user: string) => void,
): Promise<Answer> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new ApiError(405, `${req.method ?? ''} is not allowed: every data endpoint of the service is GET.`);
  }
  const principal = state.auth.authenticate(req.headers.authorization);
  if (!principal) throw new ApiError(401, 'Unauthenticated.');
  setUser(principal.user);
  const segments = resourcePath.split('/').slice(1);
  const scope = scopeOf(segments);
  let headers: Record<string, string> = {};
  if (state.limiter.enabled) {
    const decision = state.limiter.hit(principal.user);
    headers = rateHeaders(state, decision);
    if (!decision.allowed) return { status: 429, body: errorJson(version, 'Too Many Requests'), headers };
  }
  if (scope !== undefined && !principal.hasScope(scope)) {
    // A missing scope is a 401 in v2 and was a 403 in v1 (§4.4).
    return { status: version === 'v1' ? 403 : 401, body: errorJson(version, `This token lacks the scope '${scope}'.`), headers };
  }
  const fault = state.faults.next(resourcePath);
  if (fault && typeof fault.kind === 'number') {
    const extra: Record<string, string> = {};
    if (fault.kind === 429) {
      const retryAfterS = fault.retryAfterS ?? 1;
      Object.assign(extra, { 'X-RateLimit-Remaining': '0', 'Retry-After': String(retryAfterS), 'X-RateLimit-Reset': String(Math.ceil(state.now() / 1000) + retryAfterS) });
    }
    return { status: fault.kind, body: errorJson(version, STATUS_TEXT[fault.kind] ?? 'Injected failure'), headers: { ...headers, ...extra }, fault };
  }
  try {
    const answer: Answer = { ...apiAnswer(state, version, segments, url, principal.user), headers };
    if (fault) answer.fault = fault;
    return answer;
  } catch (error) {
    if (error instanceof ApiError) Object.assign(headers, error.headers);
    throw error instanceof ApiError ? new ApiError(error.status, error.message, headers) : error;
  }
}

/** The scope an endpoint needs (§4.3), from the catalogue. */
function scopeOf(segments: string[]): string | undefined {
  try {
    const r = route(segments);
    if (r.resource === 'tool') return TOOLS[r.slug].scope;
    if (r.resource === 'best-countries-data') return BEST_COUNTRIES_DATA_SCOPE;
    if (r.resource === 'best-countries-raw') return BEST_COUNTRIES_RAW.scope;
    if (r.resource === 'country-indicators') return COUNTRY_INDICATORS.scope;
    return r.resource === 'archetypes' ? ARCHETYPES_TOOL.scope : RESOURCES[r.resource].scope;
  } catch {
    return undefined;
  }
}

function record(state: HandlerState, req: IncomingMessage, url: URL, answer: Answer, user: string | undefined, started: number) {
  if (url.pathname.startsWith('/__emulator')) return;
  state.requests.push({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search.slice(1),
    status: answer.fault && typeof answer.fault.kind === 'string' ? 0 : answer.status,
    user,
    fault: answer.fault ? String(answer.fault.kind) : undefined,
    at: started,
    durationMs: state.now() - started,
  });
  if (state.requests.length > state.maxRecorded) state.requests.splice(0, state.requests.length - state.maxRecorded);
}

async function send(state: HandlerState, req: IncomingMessage, res: ServerResponse, answer: Answer): Promise<void> {
  const kind = answer.fault?.kind;
  if (kind === 'reset' || kind === 'hang') answer.release?.(); // nothing of the body is sent
  if (kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (kind === 'hang') {
    state.hanging.add(req.socket);
    req.socket.once('close', () => state.hanging.delete(req.socket));
    return;
  }
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  res.writeHead(answer.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-cache, private',
    ...answer.headers,
  });
  if (req.method === 'HEAD') {
    res.end();
    answer.release?.();
    return;
  }
  if (kind === 'truncate') {
    // Promise the whole body, send half, cut the connection: a body cut short.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
    return;
  }
  // Only an answer the socket took in full gives its memory back (an aborted one is collected).
  if (answer.release) res.once('finish', answer.release);
  res.end(body);
}

export { createIndexes };
