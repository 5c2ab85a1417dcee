/**
 * `POST /api/v1/auto-login` (§17.1): signs a user in for an embedded tool. Authenticated like any
 * call (the emulator asks for the scope `Embed: Auto-login`, which tokens without scopes have); the
 * body names the user; the answer is `{"access_token": ...}`, the user's token, valid until the next
 * 00:00 UTC. Unknown users are created on the fly (the service's behaviour there is undocumented).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import * as z from 'zod';
import { ApiError, badRequest } from './api-error.js';
import { readAdminJson } from './admin-bodies.js';

export const AUTO_LOGIN_SCOPE = 'Embed: Auto-login';

const body = z.strictObject({
  email: z.string().trim().email().max(254),
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().min(1).max(100),
});

export async function autoLogin(
  req: IncomingMessage,
  issue: (token: string, user: string) => { expiresAt: number },
  seed: number,
  counter: () => number,
): Promise<{ access_token: string }> {
  const json = await readAdminJson(req);
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue0 = parsed.error.issues[0];
    throw badRequest(`The auto-login body needs email, first_name and last_name: ${issue0 ? `${issue0.path.join('.') || 'body'}: ${issue0.message}` : 'invalid'}.`);
  }
  const user = parsed.data.email.toLowerCase();
  if (user.length === 0) throw new ApiError(400, 'email is empty.');
  const token = `emb-${createHash('sha256').update(`${seed}:${user}:${counter()}`).digest('hex').slice(0, 40)}`;
  issue(token, user);
  return { access_token: token };
}
