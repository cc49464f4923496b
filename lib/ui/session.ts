/**
 * The dashboard's session and the rules every request passes first: the
 * one-time login token exchanged for a session cookie and the Host and
 * Origin checks (guard.ts), the security headers, no caching of pages, and
 * secrets typed into an address masked before any page echoes them. The
 * REST API (rest.ts) answers in JSON with its own token check.
 */
import type { Context, Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { accessGuard, type Refusal } from './guard.js';
import { messagesFor } from './messages.js';
import type { PageContext } from './page-context.js';

/** Address parameters a user types (the search box, the text filters): masked like every text (below). The selects (agent, priority, tier, mode) offer names the memory already has. */
const TYPED_PARAMS = new Set(['q', 'category', 'tag', 'since', 'until']);

/** A path of the REST API (rest.ts), not a page. */
export function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

export function mountSession(app: Hono, page: PageContext): void {
  const { options, mask, langOf } = page;
  const refuse = (c: Context, why: Refusal) => {
    const m = messagesFor(langOf(c));
    const text =
      why === 'foreign-host' ? m.foreignHost : why === 'foreign-origin' ? m.foreignOrigin : why === 'login-used' ? m.loginUsed : m.denied;
    options.logger.log('warn', 'ui.refused', { why, path: c.req.path });
    return c.text(text, why === 'no-token' ? 401 : 403);
  };

  const guard = accessGuard({
    token: options.token,
    session: options.session,
    port: options.port,
    refuse,
    ...(options.onLogin ? { onLogin: options.onLogin } : {}),
  });
  // The REST API (rest.ts) answers in JSON with its own token check; the dashboard's pages behind the login.
  app.use('*', (c, next) => (isApi(c.req.path) ? next() : guard(c, next)));
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form POST, which the guard must refuse.
      referrerPolicy: 'same-origin',
      crossOriginResourcePolicy: 'same-origin',
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    if (!c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-store');
  });
  // A secret typed into an address (a key pasted into the search box or a filter) is masked there before any page
  // echoes it — in the box, the links and the address bar. The search engine masks a query anyway, so it finds the
  // same. Only what a user types: a file, id or way back names a file, and a long path (a vault's) can look like a
  // high-entropy secret to the masking rules.
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' || isApi(c.req.path)) return next();
    const url = new URL(c.req.url);
    const params = [...url.searchParams].map(([k, v]): [string, string] => [k, TYPED_PARAMS.has(k) ? mask(v) : v]);
    if (params.every(([k, v]) => url.searchParams.getAll(k).includes(v))) return next();
    return c.redirect(`${url.pathname}?${new URLSearchParams(params).toString()}`, 303);
  });
}
