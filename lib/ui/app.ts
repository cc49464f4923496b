/**
 * The dashboard (`ocm-run ui`, docs/dashboard.md): a hono app over one
 * memory home. Reading pages read the memory through the handle the app
 * keeps open, as it is at the moment of the request; changing ones (POST) go
 * through lib/ui/curate.ts and answer with a redirect back to the page they
 * came from. Every text from the memory is masked (lib/masking/masking.ts,
 * the same rules as every other output) before it reaches a page.
 *
 *   session.ts        login, Host/Origin rules, security headers (every request first)
 *   rest.ts           the REST API under /api/v1
 *   assets.ts         the style sheet, the script, uPlot
 *   page-context.ts   what every page shares (frame, masking, filters, the error page)
 *   routes/           one module per page: timeline and search, one observation,
 *                     a file, active memory, tiers, health
 *   pages.ts          the HTML the pages are made of
 */
import { Hono } from 'hono';
import { memoryOf, type MemoryHandle } from '../api/memory.js';
import { maskedText } from '../masking/masking.js';
import { maskingOptions } from '../sources/registry.js';
import { mountAssets } from './assets.js';
import { pageContext, type UiAppOptions } from './page-context.js';
import { problemOf, UiProblem } from './problems.js';
import { mountRestApi } from './rest.js';
import { mountActive } from './routes/active.js';
import { mountFile } from './routes/file.js';
import { mountHealth } from './routes/health.js';
import { mountObservation } from './routes/observation.js';
import { mountTiers } from './routes/tiers.js';
import { mountTimeline } from './routes/timeline.js';
import { mountSession } from './session.js';

export type { UiAppOptions } from './page-context.js';
export { maskedLines } from './routes/file.js';

export interface UiApp {
  app: Hono;
  /** The handle the dashboard keeps open on the home (closed with the server). */
  memory: MemoryHandle;
}

export function createUiApp(options: UiAppOptions): UiApp {
  const { paths, config } = options;
  const memory = memoryOf(paths.root, config, {
    keepOpen: true,
    logger: options.logger,
    now: options.now,
    lockWaitMs: options.lockWaitMs ?? 20_000,
  });
  const masking = maskingOptions(config);
  const mask = (text: string) => maskedText(text, masking);
  const page = pageContext(options, memory, mask);
  const app = new Hono();
  mountSession(app, page);
  mountRestApi(app, {
    memory,
    apiToken: options.apiToken,
    session: options.session,
    port: options.port,
    now: options.now,
    mask,
    log: (level, event, fields) => options.logger.log(level, event, fields),
  });
  app.onError((error, c) => page.problemPage(c, problemOf(error, 'page')));
  app.notFound((c) => page.problemPage(c, new UiProblem('NOT_FOUND', 'noPage', { path: c.req.path })));
  mountAssets(app);
  mountTimeline(app, page);
  mountObservation(app, page);
  mountFile(app, page);
  mountActive(app, page);
  mountTiers(app, page);
  mountHealth(app, page);
  return { app, memory };
}
