/**
 * OC-Memory's OpenClaw plugin (installed by `ocm-run integrate openclaw`).
 *
 * - before_prompt_build: prepends a compact memory context — the current task
 *   and the preferences from active_memory.md, plus the best results of an
 *   OC-Memory search on the last three user messages (score ≥ minScore) —
 *   within a token cap, with a discreet marker line saying memory was used.
 * - agent_end / before_reset: has OC-Memory observe the transcript now, so
 *   memory is up to date without waiting for the next scheduled tick.
 *
 * It must never break a turn: every step has a time limit, every error is
 * logged and swallowed, and a failed lookup just means no memory this turn.
 * No dependencies beyond Node's own modules (it is copied, not npm-installed).
 */
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface PluginConfig {
  home: string;
  node: string;
  cli: string;
  minScore?: number;
  maxTokens?: number;
  searchLimit?: number;
  timeoutMs?: number;
  observeOnEnd?: boolean;
  marker?: boolean;
}

interface Logger {
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** The part of OpenClaw's plugin API this plugin uses. */
export interface PluginApi {
  pluginConfig?: unknown;
  logger?: Logger;
  on(hook: string, handler: (event: any, ctx?: any) => unknown, options?: { priority?: number; timeoutMs?: number }): void;
}

interface SearchResult {
  id: string;
  score: number;
  snippet: string;
  date?: string;
  priority?: string;
  category?: string;
}

const PRIORITY_MARK: Record<string, string> = { high: '🔴', medium: '🟡', low: '🟢' };

/** About four characters a token: the plugin carries no tokenizer. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The lines of one `## Heading` section of active_memory.md. */
export function sectionLines(markdown: string, heading: RegExp): string[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s/.test(l) && heading.test(l));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^##?\s/.test(line)) break;
    const t = line.trim();
    if (!t || /^_none yet\._$/i.test(t)) continue;
    out.push(t);
  }
  return out;
}

function messageText(message: any): string {
  if (!message) return '';
  const content = message.content ?? message.text;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: any) => (b && typeof b === 'object' && typeof b.text === 'string' ? b.text : typeof b === 'string' ? b : '')).join(' ');
  return '';
}

/** The last three user messages (the current request included), newest last. */
export function lastUserMessages(event: any, count = 3): string[] {
  const texts: string[] = [];
  const messages: any[] = Array.isArray(event?.messages) ? event.messages : [];
  for (const m of messages) {
    const role = m?.role ?? m?.message?.role;
    if (role === 'user') texts.push(messageText(m.message ?? m));
  }
  const current = typeof event?.currentUserMessage === 'string' ? event.currentUserMessage : undefined;
  if (current && texts[texts.length - 1] !== current) texts.push(current);
  if (texts.length === 0 && typeof event?.prompt === 'string') texts.push(event.prompt);
  return texts
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(-count);
}

function activeMemoryFile(home: string, agent: string | undefined): string {
  if (!agent || agent === 'main') return join(home, 'active_memory.md');
  return join(home, `active_memory.${agent.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^\.+/, '_')}.md`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function runSearch(config: Required<PluginConfig>, query: string, agent: string | undefined, timeoutMs: number): Promise<SearchResult[]> {
  const args = [config.cli, 'search', query, '--json', '--limit', String(config.searchLimit), '--home', config.home];
  if (agent) args.push('--agent', agent);
  return new Promise((resolve, reject) => {
    execFile(config.node, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true, env: { ...process.env, CI: '1' } }, (error, stdout) => {
      if (error) {
        reject(error);
        return;
      }
      try {
        const parsed = JSON.parse(String(stdout)) as { results?: SearchResult[] };
        resolve(Array.isArray(parsed.results) ? parsed.results : []);
      } catch (e) {
        reject(e);
      }
    });
  });
}

export interface MemoryContext {
  text: string;
  tokens: number;
  task: number;
  preferences: number;
  related: number;
}

/** Build the prepended context; undefined when there is nothing worth adding. */
export function composeContext(parts: { task: string[]; preferences: string[]; related: SearchResult[]; maxTokens: number; marker: boolean }): MemoryContext | undefined {
  const known = new Set([...parts.task, ...parts.preferences].map((l) => l.toLowerCase()));
  const related = parts.related.filter((r) => ![...known].some((k) => k.includes(r.snippet.toLowerCase().slice(0, 60))));
  const sections: Array<{ title: string; lines: string[] }> = [
    { title: 'Current task', lines: parts.task.slice(0, 3) },
    { title: 'Preferences and constraints', lines: parts.preferences },
    {
      title: 'Related memories',
      lines: related.map((r) => `- ${PRIORITY_MARK[r.priority ?? ''] ?? '•'} ${r.date ? `${r.date} ` : ''}${r.category ? `[${r.category}] ` : ''}${r.snippet}`),
    },
  ];
  const counts = { task: 0, preferences: 0, related: 0 };
  const header = '<oc-memory>\nLong-term memory from earlier conversations (OC-Memory). Use it when relevant; the user\'s latest words win over it.';
  const footer = '</oc-memory>';
  let text = header;
  let used = approxTokens(header) + approxTokens(footer) + 20;
  const keys = ['task', 'preferences', 'related'] as const;
  sections.forEach((section, i) => {
    const kept: string[] = [];
    for (const line of section.lines) {
      const cost = approxTokens(line) + 1;
      if (used + cost > parts.maxTokens) break;
      kept.push(line.startsWith('- ') ? line : `- ${line}`);
      used += cost;
    }
    if (kept.length === 0) return;
    counts[keys[i]!] = kept.length;
    text += `\n## ${section.title}\n${kept.join('\n')}`;
    used += approxTokens(section.title) + 2;
  });
  if (counts.task + counts.preferences + counts.related === 0) return undefined;
  if (parts.marker) {
    const what = [counts.task ? 'current task' : '', counts.preferences ? `${counts.preferences} preference${counts.preferences === 1 ? '' : 's'}` : '', counts.related ? `${counts.related} related memor${counts.related === 1 ? 'y' : 'ies'}` : '']
      .filter(Boolean)
      .join(', ');
    text += `\n(🧠 memory used: ${what} — if you rely on it, you may end your reply with a short "🧠" note.)`;
  }
  text += `\n${footer}`;
  return { text, tokens: approxTokens(text), ...counts };
}

function resolveConfig(raw: unknown): Required<PluginConfig> | undefined {
  const c = (raw && typeof raw === 'object' ? raw : {}) as Partial<PluginConfig>;
  if (!c.home || !c.node || !c.cli) return undefined;
  return {
    home: c.home,
    node: c.node,
    cli: c.cli,
    minScore: typeof c.minScore === 'number' ? c.minScore : 0.4,
    maxTokens: typeof c.maxTokens === 'number' ? c.maxTokens : 800,
    searchLimit: typeof c.searchLimit === 'number' ? c.searchLimit : 5,
    timeoutMs: typeof c.timeoutMs === 'number' ? c.timeoutMs : 2500,
    observeOnEnd: c.observeOnEnd !== false,
    marker: c.marker !== false,
  };
}

/** Look up memory for one prompt. Never throws. */
export async function buildMemoryContext(config: Required<PluginConfig>, event: any, ctx: any, logger: Logger): Promise<MemoryContext | undefined> {
  const started = Date.now();
  const agent: string | undefined = typeof ctx?.agentId === 'string' ? ctx.agentId : undefined;
  const [active, results] = await Promise.all([
    readFile(activeMemoryFile(config.home, agent), 'utf8').catch(() => readFile(activeMemoryFile(config.home, 'main'), 'utf8').catch(() => '')),
    (async () => {
      const query = lastUserMessages(event).join(' ').slice(-600);
      if (!query || config.searchLimit === 0) return [] as SearchResult[];
      try {
        return await runSearch(config, query, agent && agent !== 'main' ? agent : undefined, Math.max(100, config.timeoutMs - 100));
      } catch (error) {
        logger.warn?.(`oc-memory: search skipped (${(error as Error).message.split('\n')[0]})`);
        return [] as SearchResult[];
      }
    })(),
  ]);
  const task = sectionLines(active, /current context/i).filter((l) => !/^-?\s*_/.test(l));
  const preferences = sectionLines(active, /preferences/i);
  const related = results.filter((r) => typeof r.score === 'number' && r.score >= config.minScore && typeof r.snippet === 'string');
  const context = composeContext({ task, preferences, related, maxTokens: config.maxTokens, marker: config.marker });
  logger.info?.(`oc-memory: ${context ? `${context.tokens} tokens of memory (${context.related} related)` : 'no memory to add'} in ${Date.now() - started} ms`);
  return context;
}

const plugin = {
  id: 'oc-memory',
  name: 'OC-Memory',
  description: 'Observational long-term memory for OpenClaw, kept as Markdown by OC-Memory.',
  register(api: PluginApi): void {
    const logger: Logger = api.logger ?? {};
    const config = resolveConfig(api.pluginConfig);
    if (!config) {
      logger.warn?.('oc-memory: plugin config needs home, node and cli; run `ocm-run integrate openclaw` again. Memory is off for now.');
      return;
    }
    api.on(
      'before_prompt_build',
      async (event: any, ctx: any) => {
        try {
          const context = await withTimeout(buildMemoryContext(config, event, ctx, logger), config.timeoutMs, 'the memory lookup');
          return context ? { prependContext: context.text } : undefined;
        } catch (error) {
          logger.warn?.(`oc-memory: no memory this turn (${(error as Error).message})`);
          return undefined;
        }
      },
      { timeoutMs: config.timeoutMs + 500 },
    );

    let lastObserve = 0;
    const observe = (why: string) => {
      if (!config.observeOnEnd) return;
      const now = Date.now();
      if (now - lastObserve < 3000) return; // a burst of turns: one observe is enough (the lock serialises the rest)
      lastObserve = now;
      try {
        const child = spawn(config.node, [config.cli, 'observe', '--home', config.home], { detached: true, stdio: 'ignore', windowsHide: true, env: { ...process.env, CI: '1' } });
        child.on('error', (error) => logger.warn?.(`oc-memory: observe after ${why} failed to start (${error.message})`));
        child.unref();
      } catch (error) {
        logger.warn?.(`oc-memory: observe after ${why} failed to start (${(error as Error).message})`);
      }
    };
    api.on('agent_end', () => observe('agent_end'));
    api.on('before_reset', () => observe('before_reset'));
  },
};

export default plugin;
