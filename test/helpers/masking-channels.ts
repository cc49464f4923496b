/**
 * The masking corpus through every channel a transcript line reaches, with
 * the built CLI as a child process: an OpenClaw transcript holding each
 * instance as a user message and as a tool result; `ocm-run run` with the
 * LLM Observer on a local fake OpenAI server (every request recorded), then
 * `ocm-run search` (the query cache, also for queries that hold a secret),
 * then `ocm-run sync` to a local bare Git remote. Then each channel's bytes
 * are searched for every instance's secret.
 *
 * Used by test/masking/masking-channels.test.ts and `npm run bench -- masking`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli, tempDir } from './cli.js';
import { filesUnder } from './files-under.js';
import { ok, startOpenAiServer, type RecordedRequest } from './openai-server.js';
import { PiSessionWriter } from './pi-writer.js';
import { harmlessCorpus, leaks, secretCorpus, type SecretInstance } from './secret-corpus.js';

export const CHANNELS = ['llm-request', 'day-files', 'index', 'active-memory', 'query-cache', 'sync-remote', 'logs'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface ChannelStats {
  /** Instances whose marker reached the channel (so masking was tested there). */
  reached: number;
  /** Of those, instances with a piece of the secret in the channel. */
  leaked: number;
  /** Leaked instances (kind/context), for the failure message. */
  leaks: string[];
}

export interface ChannelReport {
  seed: number;
  instances: number;
  kinds: number;
  /** Per channel, then per kind. */
  channels: Record<Channel, ChannelStats & { byKind: Record<string, ChannelStats> }>;
  /** Harmless classes whose text did not reach the day files unchanged. */
  harmlessAltered: string[];
  harmlessClasses: number;
  /** The raw secrets of the queries typed into `search` reached the cache, the index or the LLM: should be 0. */
  queryLeaks: number;
}

const marker = (i: number) => `ocmref${i}x`;

/** The model: one observation per user line, word for word (so every user line reaches the day files). */
function echoModel(req: RecordedRequest) {
  const out: string[] = [];
  for (const line of (req.messages[1]?.content ?? '').split('\n')) {
    const header = /^## (\d{4}-\d{2}-\d{2})/.exec(line);
    if (header) out.push(`## ${header[1]}`);
    const user = /^(?:\d\d:\d\d )?U: (.*)$/.exec(line);
    if (user) out.push(`- 🔴 [fact] User noted: ${user[1]}`);
  }
  return ok(out.length > 0 ? `${out.join('\n')}\nCurrent task: keeping notes` : 'NONE');
}

async function readTree(dir: string, skip: (path: string) => boolean = () => false): Promise<string> {
  let out = '';
  for (const file of await filesUnder(dir, { skip })) {
    // latin1 keeps every byte: SQLite pages and JSON alike are searched as they are on disk.
    const bytes = await readFile(file);
    out += `${bytes.toString('utf8')}\n${bytes.toString('latin1')}\n`;
  }
  return out;
}

function emptyStats(): ChannelStats {
  return { reached: 0, leaked: 0, leaks: [] };
}

export async function runMaskingChannels(options: {
  seed: number;
  perContext?: number;
  log?: (line: string) => void;
}): Promise<ChannelReport> {
  const log = options.log ?? (() => {});
  const corpus: SecretInstance[] = secretCorpus(options.seed, options.perContext ?? 1);
  const harmless = harmlessCorpus(options.seed, 1);
  const { dir, cleanup } = await tempDir('ocm-mask-channels-');
  const llm = await startOpenAiServer((req) => echoModel(req));
  try {
    const stateDir = join(dir, 'openclaw');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    await mkdir(sessions, { recursive: true });
    const id = '55555555-0000-4000-8000-000000000000';
    const w = new PiSessionWriter(id, new Date('2026-03-02T09:00:00Z'), 2_000);
    let transcript = w.header();
    corpus.forEach((instance, i) => {
      transcript += w.message({ role: 'user', text: `Remember ${marker(i)}: ${instance.text}` });
      transcript += w.message({ role: 'assistant', text: 'Noted.' });
      transcript += w.toolExchange('bash', { command: `cat notes/${marker(i)}.txt` }, `${marker(i)} ${instance.text}`);
    });
    harmless.forEach((h, i) => {
      transcript += w.message({ role: 'user', text: `Keep hm${i}x: ${h.text}` });
    });
    await writeFile(join(sessions, `${id}.jsonl`), transcript);

    const home = join(dir, 'home');
    const remote = join(dir, 'remote.git');
    await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, 'config.yaml'),
      [
        'timezone: UTC',
        'sources:',
        '  openclaw:',
        `    state_dirs: [${JSON.stringify(stateDir)}]`,
        '  openclaw_db: {enabled: false}',
        'observer:',
        '  provider: custom',
        '  model: echo-1',
        `  api_base: ${llm.url}`,
        '  api_key: not-a-real-key',
        '  retry_delays_ms: [10, 20, 40]',
        '  batch_tokens: 4000',
        'sync:',
        `  git: {enabled: true, remote: ${JSON.stringify(remote)}, branch: main}`,
        '',
      ].join('\n'),
    );
    const run = await runCli(['run', '--home', home], { timeoutMs: 300_000 });
    log(`run: exit ${run.code}`);
    if (run.code !== 0) throw new Error(`ocm-run run failed (${run.code}): ${run.stderr.slice(0, 2000)}`);
    // Searches: words that hit many notes (responses in the cache), and queries that hold a raw secret.
    const secretQueries = corpus.filter((_, i) => i % 97 === 5).map((i) => i.text);
    for (const query of ['Remember', 'key', 'token', 'password', 'Stripe', ...secretQueries]) {
      const r = await runCli(['search', query, '--home', home], { timeoutMs: 120_000 });
      if (r.code !== 0) throw new Error(`ocm-run search failed (${r.code}): ${r.stderr.slice(0, 1000)}`);
    }
    const sync = await runCli(['sync', '--home', home], { timeoutMs: 120_000 });
    log(`sync: exit ${sync.code}`);
    if (sync.code !== 0) throw new Error(`ocm-run sync failed (${sync.code}): ${sync.stderr.slice(0, 1000)}`);

    const texts: Record<Channel, string> = {
      'llm-request': llm.requests.map((r) => JSON.stringify(r.body)).join('\n'),
      'day-files': await readTree(
        home,
        (p) =>
          p.startsWith(join(home, '.ocm')) || p.startsWith(join(home, 'logs')) || /active_memory[^/]*\.md$/.test(p) || p.endsWith('.env'),
      ),
      index: await readTree(join(home, '.ocm', 'index'), (p) => p.endsWith('query-cache.json')),
      'active-memory': await readTree(home, (p) => !/active_memory[^/]*\.md$/.test(p)),
      'query-cache': await readFile(join(home, '.ocm', 'index', 'query-cache.json'), 'utf8').catch(() => ''),
      'sync-remote': (await execa('git', ['log', '-p', '--all'], { cwd: remote })).stdout,
      logs: await readTree(join(home, 'logs')),
    };
    // JSON-escaped text (LLM bodies, the cache) holds "\n" and "\u…" escapes: decode once for the search.
    for (const channel of ['llm-request', 'query-cache'] as const)
      texts[channel] = `${texts[channel]}\n${texts[channel].replace(/\\n/g, '\n').replace(/\\"/g, '"')}`;

    const channels = {} as ChannelReport['channels'];
    for (const channel of CHANNELS) {
      const text = texts[channel];
      const stats = { ...emptyStats(), byKind: {} as Record<string, ChannelStats> };
      corpus.forEach((instance, i) => {
        // Logs hold no message text at all: every instance counts as reached there (nothing may leak into them).
        const reached = channel === 'logs' || text.includes(marker(i));
        if (!reached) return;
        const kind = (stats.byKind[instance.kind] ??= emptyStats());
        stats.reached += 1;
        kind.reached += 1;
        if (leaks(text, instance.core)) {
          stats.leaked += 1;
          kind.leaked += 1;
          stats.leaks.push(`${instance.kind}/${instance.context}`);
          kind.leaks.push(instance.context);
        }
      });
      channels[channel] = stats;
    }
    const dayFiles = texts['day-files'];
    const harmlessAltered = [
      ...new Set(harmless.filter((h, i) => dayFiles.includes(`hm${i}x`) && !dayFiles.includes(h.text)).map((h) => h.cls)),
    ];
    const queryLeaks = secretQueries.filter((q) => {
      const instance = corpus.find((c) => c.text === q)!;
      return leaks(texts['query-cache'], instance.core) || leaks(texts.index, instance.core);
    }).length;
    return {
      seed: options.seed,
      instances: corpus.length,
      kinds: new Set(corpus.map((c) => c.kind)).size,
      channels,
      harmlessAltered,
      harmlessClasses: new Set(harmless.map((h) => h.cls)).size,
      queryLeaks,
    };
  } finally {
    await llm.close();
    await cleanup();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The report as a Markdown table: recall per kind and channel. */
export function maskingChannelsTable(r: ChannelReport): string {
  const kinds = [...new Set(Object.values(r.channels).flatMap((c) => Object.keys(c.byKind)))].sort();
  const head = `| kind | ${CHANNELS.join(' | ')} |\n|---|${CHANNELS.map(() => '---').join('|')}|`;
  const cell = (s: ChannelStats | undefined) => (s === undefined || s.reached === 0 ? '–' : `${s.reached - s.leaked}/${s.reached}`);
  const rows = kinds.map((k) => `| ${k} | ${CHANNELS.map((c) => cell(r.channels[c].byKind[k])).join(' | ')} |`);
  const total = `| **all ${r.kinds} kinds** | ${CHANNELS.map((c) => {
    const s = r.channels[c];
    return s.reached === 0 ? '–' : `${s.reached - s.leaked}/${s.reached} = ${pct(1 - s.leaked / s.reached)}`;
  }).join(' | ')} |`;
  return [
    head,
    ...rows,
    total,
    '',
    `Seed ${r.seed}, ${r.instances} instances. Harmless classes altered in the day files: ${r.harmlessAltered.length} of ${r.harmlessClasses}${r.harmlessAltered.length ? ` (${r.harmlessAltered.join(', ')})` : ''}. Queries holding a raw secret that reached the query cache or the index: ${r.queryLeaks}.`,
  ].join('\n');
}
