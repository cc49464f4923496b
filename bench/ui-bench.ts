/**
 * The dashboard at scale (the `npm run bench` section "ui").
 *
 * On a fresh home of N observations (default 100k over 90 days, agents main
 * and work: bench/search-corpus.ts, indexed with `ocm-run index`), with
 * `ocm-run ui` running as a user starts it:
 *   - the first page (the timeline) as HTTP: the very first request after the
 *     start, then p50/p95 of repeated ones; and, when Debian's chromium is
 *     installed, in the browser: navigation until the page's load event
 *     (HTML parsed, CSS and scripts loaded, laid out);
 *   - a search page (the same engine and index as `ocm-run search`, kept open
 *     by the server): p50/p95 over the bench queries, HTTP round trip;
 *   - same-run baseline: a static asset (templates/ui/ui.css) from the same
 *     server — its HTTP round trip without any memory work.
 *
 *   node --import tsx bench/run.ts ui [--n 100000] [--queries 40]
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { homePaths } from '../lib/platform/home.js';
import { processCpuMs } from './mcp-bench.js';
import { benchQueries, indexedCorpusHome, percentile, snapshotCli } from './search-bench.js';

export interface UiBenchReport {
  observations: number;
  loadAverage: number[];
  /** cpuPerRequestMs: the server process's CPU time (user + system, /proc) per request, null off Linux: on a loaded machine closer to what an idle one takes than wall time. */
  firstPage: {
    firstMs: number;
    p50: number;
    p95: number;
    requests: number;
    cpuPerRequestMs: number | null;
    bytes: number;
    observationsShown: number;
    browserLoadMs: number | null;
  };
  search: { p50: number; p95: number; requests: number; cpuPerRequestMs: number | null; serverP50: number };
  baseline: { p50: number; p95: number };
  /** The other pages, each asked 10 times after a first request: HTTP wall p50 / p95. */
  otherPages: Record<string, { firstMs: number; p50: number; p95: number }>;
  targets: Record<string, { value: number; target: string; ok: boolean }>;
}

const CHROMIUM = process.env.OCM_CHROMIUM ?? '/usr/bin/chromium';

async function get(url: string, cookie: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie }, redirect: 'manual', signal: AbortSignal.timeout(120_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms, text };
}

/** The cookie the dashboard sets when its printed address is opened (what every later request sends). */
async function sessionCookie(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(120_000) });
  await res.text();
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error(`opening ${new URL(url).origin} with its token set no cookie (status ${res.status})`);
  return cookies.join('; ');
}

export async function runUiBench(
  options: { n?: number; queries?: number; keep?: boolean; log?: (s: string) => void } = {},
): Promise<UiBenchReport> {
  const log = options.log ?? (() => undefined);
  const n = options.n ?? 100_000;
  const work = await mkdtemp(join(tmpdir(), 'ocm-ui-bench-'));
  const paths = homePaths(join(work, 'home'));
  const queries = benchQueries(options.queries ?? 40);
  let server: ReturnType<typeof execa> | undefined;
  try {
    const CLI = await snapshotCli(work);
    const documents = await indexedCorpusHome(paths, CLI, n, log);

    log('  ocm-run ui…');
    server = execa(process.execPath, [CLI, 'ui', '--port', '0', '--json', '--home', paths.root], {
      reject: false,
      env: { CI: '1', HOME: work },
      stdin: 'ignore',
      timeout: 30 * 60_000,
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`ocm-run ui printed no address: ${out}`)), 120_000);
      server!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
        if (line) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
    });
    const origin = new URL(url).origin;
    // Log in as a browser does: the printed address (its one-time token) answers with the session cookie.
    const cookie = await sessionCookie(url);

    log('  first page…');
    const first = await get(`${origin}/`, cookie);
    const pages: number[] = [];
    const cpu = () => processCpuMs(server!.pid ?? null);
    const perRequest = (before: number | null, after: number | null, n: number) =>
      before !== null && after !== null ? Math.round(((after - before) / n) * 10) / 10 : null;
    const pagesCpu = cpu();
    for (let i = 0; i < 20; i++) pages.push((await get(`${origin}/`, cookie)).ms);
    const pagesCpuPerRequest = perRequest(pagesCpu, cpu(), pages.length);
    const observationsShown = (first.text.match(/<li class="obs /g) ?? []).length;

    log('  search pages…');
    await get(`${origin}/search?q=${encodeURIComponent(queries[0]!)}`, cookie);
    const searches: number[] = [];
    const serverMs: number[] = [];
    const searchCpu = cpu();
    for (const q of queries) {
      const r = await get(`${origin}/search?q=${encodeURIComponent(q)}`, cookie);
      searches.push(r.ms);
      const m = / · ([\d.]+) ms<\/p>/.exec(r.text);
      if (m) serverMs.push(Number(m[1]));
    }
    const searchCpuPerRequest = perRequest(searchCpu, cpu(), searches.length);
    const baseline: number[] = [];
    for (let i = 0; i < 20; i++) baseline.push((await get(`${origin}/assets/ui.css`, cookie)).ms);

    log('  the other pages…');
    const otherPages: UiBenchReport['otherPages'] = {};
    for (const page of ['/active', '/tiers', '/health']) {
      const firstMs = Math.round((await get(`${origin}${page}`, cookie)).ms);
      const times: number[] = [];
      for (let i = 0; i < 10; i++) times.push((await get(`${origin}${page}`, cookie)).ms);
      otherPages[page] = { firstMs, p50: percentile(times, 50), p95: percentile(times, 95) };
    }

    let browserLoadMs: number | null = null;
    if (existsSync(CHROMIUM)) {
      log('  first page in chromium…');
      const { chromium } = await import('playwright-core');
      const { CHROMIUM_ARGS } = await import('../test/helpers/ui-server.js');
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 120_000 });
      try {
        const page = await browser.newPage();
        await page.goto(url, { timeout: 120_000 });
        const loads: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          await page.goto(`${origin}/`, { waitUntil: 'load', timeout: 120_000 });
          loads.push(performance.now() - started);
        }
        browserLoadMs = percentile(loads, 50);
      } finally {
        await browser.close();
      }
    }

    const report: UiBenchReport = {
      observations: documents,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      firstPage: {
        firstMs: Math.round(first.ms),
        p50: percentile(pages, 50),
        p95: percentile(pages, 95),
        requests: pages.length,
        cpuPerRequestMs: pagesCpuPerRequest,
        bytes: Buffer.byteLength(first.text),
        observationsShown,
        browserLoadMs,
      },
      search: {
        p50: percentile(searches, 50),
        p95: percentile(searches, 95),
        requests: searches.length,
        cpuPerRequestMs: searchCpuPerRequest,
        serverP50: percentile(serverMs, 50),
      },
      baseline: { p50: percentile(baseline, 50), p95: percentile(baseline, 95) },
      otherPages,
      targets: {},
    };
    const rendered = report.firstPage.browserLoadMs ?? report.firstPage.p95;
    report.targets = {
      [`first page ≤ 1 s (${report.firstPage.browserLoadMs === null ? 'HTTP p95; no chromium' : 'chromium load event, p50'})`]: {
        value: rendered,
        target: '≤ 1000 ms',
        ok: rendered <= 1000,
      },
      'search page ≤ 100 ms (HTTP p95)': { value: report.search.p95, target: '≤ 100 ms', ok: report.search.p95 <= 100 },
    };
    return report;
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await server;
    }
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`  kept ${work}`);
  }
}

export function uiBenchTable(r: UiBenchReport): string {
  return [
    `Dashboard (ocm-run ui) at ${r.observations.toLocaleString('en')} observations; load average ${r.loadAverage.join(' ')}`,
    '',
    '| measure | OC-Memory | same-run baseline |',
    '|---|---|---|',
    `| first page (timeline, ${r.firstPage.observationsShown} observations, ` +
      `${Math.round(r.firstPage.bytes / 1024)} KB), HTTP p50 / p95 over ${r.firstPage.requests} | ${r.firstPage.p50} ` +
      `/ ${r.firstPage.p95} ms wall, server CPU ${r.firstPage.cpuPerRequestMs ?? '–'} ms a request (the first ` +
      `request after the start: ${r.firstPage.firstMs} ms) | static asset: ${r.baseline.p50} / ${r.baseline.p95} ms |`,
    `| first page in chromium, navigation to the load event, p50 of 5 | ` +
      `${r.firstPage.browserLoadMs ?? '– (chromium not installed)'}${r.firstPage.browserLoadMs === null ? '' : ' ms'} ` +
      `| – |`,
    `| search page, HTTP p50 / p95 over ${r.search.requests} queries | ${r.search.p50} / ${r.search.p95} ms wall, ` +
      `server CPU ${r.search.cpuPerRequestMs ?? '–'} ms a request (search itself, as the page reports it: p50 ` +
      `${r.search.serverP50} ms) | static asset: ${r.baseline.p50} / ${r.baseline.p95} ms |`,
    ...Object.entries(r.otherPages).map(
      ([page, t]) =>
        `| ${page}, HTTP p50 / p95 over 10 (first request ${t.firstMs} ms) | ${t.p50} / ${t.p95} ms wall | static ` +
        `asset: ${r.baseline.p50} / ${r.baseline.p95} ms |`,
    ),
    '',
    '| target | measured | ok |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, v]) => `| ${k} | ${v.value} | ${v.ok ? 'yes' : 'NO'} |`),
  ].join('\n');
}
