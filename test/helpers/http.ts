/** Raw HTTP helpers for tests that look at exactly what the emulator sends. */
import type { Emulator } from '../../src/emulator/index.js';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function call(emulator: Emulator, pathAndQuery: string, options: { token?: string | null; method?: string; body?: unknown } = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.token === undefined ? emulator.token : options.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${emulator.url}${pathAndQuery}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** GET under /api/v2 and assert a 200; returns the parsed body. */
export async function getJson<T = Record<string, unknown>>(emulator: Emulator, pathAndQuery: string): Promise<T> {
  const answer = await call(emulator, `/api/v2${pathAndQuery}`);
  if (answer.status !== 200) throw new Error(`GET ${pathAndQuery} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.json as T;
}

export interface ListBody<T = Record<string, unknown>> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: { url: string | null; label: string | number; active: boolean }[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

export const list = <T = Record<string, unknown>>(emulator: Emulator, pathAndQuery: string) => getJson<ListBody<T>>(emulator, pathAndQuery);

/** Every page of a list, read with raw HTTP (1,000 records a page). */
export async function listAll<T>(emulator: Emulator, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const body = await list<T>(emulator, `${path}${path.includes('?') ? '&' : '?'}per_page=1000&page=${page}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

export const fixture = async <T = unknown>(name: string): Promise<T> => {
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(new URL(`../fixtures/api/${name}`, import.meta.url), 'utf8')) as T;
};
