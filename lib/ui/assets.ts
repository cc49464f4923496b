/** The dashboard's own files (`/assets/…`): its style sheet and script, and uPlot (MIT) from node_modules — no CDN, the dashboard works offline. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { packagePath } from '../platform/package-root.js';

const require = createRequire(import.meta.url);

interface Asset {
  path: () => string;
  type: string;
}

const ASSETS: Record<string, Asset> = {
  'ui.css': { path: () => packagePath('templates', 'ui', 'ui.css'), type: 'text/css; charset=utf-8' },
  'ui.js': { path: () => packagePath('templates', 'ui', 'ui.js'), type: 'text/javascript; charset=utf-8' },
  // uPlot (MIT) from node_modules: no CDN, the dashboard works offline.
  'uplot.js': { path: () => require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
  'uplot.css': { path: () => require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

export function mountAssets(app: Hono): void {
  app.get('/assets/:name', async (c) => {
    const asset = Object.hasOwn(ASSETS, c.req.param('name')) ? ASSETS[c.req.param('name')] : undefined;
    if (!asset) return c.notFound();
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', 'private, max-age=3600');
    return c.body(await readFile(asset.path()));
  });
}
