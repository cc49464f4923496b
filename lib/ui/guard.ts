/**
 * Who may talk to the dashboard (docs/dashboard.md, "Security"):
 * - the Host header must name the loopback address the server listens on
 *   (127.0.0.1, localhost or [::1] with its port): a DNS-rebinding page that
 *   makes evil.example resolve to 127.0.0.1 sends `Host: evil.example`;
 * - an Origin header, when there is one, must be the dashboard's own; a
 *   request that changes something (any method but GET/HEAD) must carry it
 *   (browsers always send it on a form POST): no cross-site request forgery;
 * - a one-time login token, given in the URL (?token=…) and exchanged, on its
 *   first use, for the session secret in an HttpOnly, SameSite=Strict cookie;
 *   the same URL in another client is refused with a page that says so (a
 *   request that already has the session is sent on). A request without the
 *   session is refused.
 * No CORS headers are ever sent, so no other origin can read an answer.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export type Refusal = 'foreign-host' | 'foreign-origin' | 'no-token' | 'login-used';

export interface GuardOptions {
  /** The one-time login token of this run (in the printed address). */
  token: string;
  /** The session secret the login token is exchanged for (the cookie's value). */
  session: string;
  /** Called once, when the login token is used (awaited before the answer). */
  onLogin?: () => void | Promise<void>;
  /** The port the server listens on (Host and Origin must carry it). */
  port: () => number;
  /** The page shown for a refusal. */
  refuse: (c: Context, why: Refusal) => Response | Promise<Response>;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function cookieName(port: number): string {
  return `ocm_ui_${port}`;
}

function sameSecret(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function allowedHosts(port: number): Set<string> {
  return new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
}

export function accessGuard(options: GuardOptions): MiddlewareHandler {
  let loginUsed = false;
  return async (c, next) => {
    const port = options.port();
    const hosts = allowedHosts(port);
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!hosts.has(host)) return options.refuse(c, 'foreign-host');
    const origin = c.req.header('origin');
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    if (origin !== undefined || changes) {
      let originHost = '';
      try {
        const url = new URL(origin ?? '');
        if (url.protocol === 'http:') originHost = url.host.toLowerCase();
      } catch {
        originHost = '';
      }
      if (!hosts.has(originHost)) return options.refuse(c, 'foreign-origin');
    }
    const name = cookieName(port);
    const fromUrl = c.req.query('token');
    const hasSession = sameSecret(getCookie(c, name), options.session);
    if (sameSecret(fromUrl, options.token)) {
      if (loginUsed && !hasSession) return options.refuse(c, 'login-used');
      if (!loginUsed) {
        loginUsed = true;
        await options.onLogin?.();
      }
      // The session goes into a cookie, the token out of the address bar (and the history).
      setCookie(c, name, options.session, { httpOnly: true, sameSite: 'Strict', path: '/' });
      const url = new URL(c.req.url);
      url.searchParams.delete('token');
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (!hasSession) return options.refuse(c, 'no-token');
    await next();
  };
}
