/**
 * `remember`: one observation written now, by the user or an agent's
 * request (the MCP and plugin tool, the dashboard's "remember this", the
 * REST API), rather than observed from a transcript. Masked, under the home
 * lock, into today's day file of the agent; what it replaces is marked, the
 * agent's active memory rebuilt, and the hot index updated, so the next
 * search and the next prompt have it.
 */
import { OcmError } from '../core/errors.js';
import type { Config } from '../config/config-schema.js';
import type { Observation, Priority } from '../core/types.js';
import { dayFilePath, type HomePaths } from '../platform/home.js';
import type { Logger } from '../platform/log.js';

/** Who asks to remember (an MCP client's name and version from its `initialize`; the plugin's OpenClaw): the provenance's session. */
export interface ToolClient {
  name: string;
  version?: string;
}

export interface RememberContext {
  paths: HomePaths;
  config: Config;
  /** The agent whose day file it goes into. */
  agent: string;
  /** The caller, for the provenance (undefined: unknown-client). */
  client: ToolClient | undefined;
  logger?: Logger;
  now?: () => Date;
  /** How long to wait for the home lock while another job writes (ms). */
  lockWaitMs?: number;
}

export interface RememberInput {
  text: string;
  /** Default high. */
  priority?: Priority;
  /** Default fact. */
  category?: string;
  tags?: string[];
}

/** The longest text one remembered observation may have (every front end: the MCP tool's schema, the dashboard, the service below). */
export const REMEMBER_MAX_CHARS = 2_000;

/** How many characters (code points, as a JSON schema's maxLength counts them) `text` has. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
/** The provenance session of every remembered observation (its id does not depend on the client). */
const REMEMBER_SESSION = 'remember';

/** What `remember` did: the observation (masked) and whether it was new. */
export interface Remembered {
  observation: Observation;
  added: boolean;
  path: string;
  /** Secrets masked out of the text. */
  masked: number;
  /** Set when a password or credential was masked: what the reply tells the user. */
  note?: string;
}

/**
 * Write one observation now to today's day file of `ctx.agent`, masked,
 * under the home lock, and bring the hot index up to date so the next search
 * finds it. The id depends on agent, day, category and text only: the same
 * sentence remembered twice on a day is one observation.
 */
export async function rememberObservation(ctx: RememberContext, args: RememberInput): Promise<Remembered> {
  const { maskSecrets } = await import('../masking/masking.js');
  const { maskingOptions } = await import('../sources/registry.js');
  const { oneLine, observationId } = await import('../memory/observation-line.js');
  const { localDateTime, resolveTimeZone } = await import('../platform/time-zone.js');
  const { stripControlChars } = await import('../core/control-chars.js');
  const length = charCount(args.text.trim());
  if (length > REMEMBER_MAX_CHARS) {
    throw new OcmError(
      'BAD_INPUT',
      `The text to remember is ${length} characters long; at most ${REMEMBER_MAX_CHARS} are kept as one observation. Nothing was remembered.`,
      {
        hint: 'Give the one sentence worth keeping, with its concrete details.',
      },
    );
  }
  const { passwordNote } = await import('../masking/password-note.js');
  const masked = maskSecrets(oneLine(stripControlChars(args.text).trim()), maskingOptions(ctx.config));
  // A password the user asked to keep is masked, and the memory says so.
  const note = masked.count > 0 ? passwordNote(masked.text) : undefined;
  const text = note && masked.text ? `${masked.text} (${note})` : masked.text;
  if (!text) throw new OcmError('BAD_INPUT', 'Invalid arguments for remember: text is empty.', { hint: 'Give one sentence to remember.' });
  const category = args.category ?? 'fact';
  const zone = resolveTimeZone(ctx.config.timezone);
  const { date, time } = localDateTime(ctx.now?.() ?? new Date(), zone);
  const client = ctx.client;
  const observation: Observation = {
    id: observationId({ agent: ctx.agent, session: REMEMBER_SESSION, date, category, text }),
    date,
    time,
    zone,
    priority: args.priority ?? 'high',
    done: false,
    category,
    text,
    tags: [...new Set((args.tags ?? []).map((t) => t.replace(/^#/, '').toLowerCase()))],
    agent: ctx.agent,
    provenance: {
      source: 'remember',
      agent: ctx.agent,
      session: client ? `${client.name}${client.version ? `@${client.version}` : ''}` : 'unknown-client',
      entryIds: [],
    },
  };
  const { withHomeLock } = await import('../platform/lock.js');
  const { DayFileBuffer } = await import('../memory/day-file-buffer.js');
  const { updateIndex } = await import('../search/indexer.js');
  const { applyLifecycle } = await import('../memory/lifecycle-file.js');
  const { rebuildActiveMemory } = await import('../memory/active-memory-file.js');
  const added = await withHomeLock(
    ctx.paths.lock,
    async () => {
      const n = await new DayFileBuffer(ctx.paths).write([observation]);
      if (n > 0) {
        // What it replaces ("from now on…") is marked, and the next turn's active memory has it.
        const names = [ctx.config.observer.user_name, ctx.config.observer.assistant_name].filter((x): x is string => Boolean(x));
        await applyLifecycle(ctx.paths, ctx.agent, new Set([observation.id]), names);
        await rebuildActiveMemory({
          paths: ctx.paths,
          config: ctx.config,
          agent: ctx.agent,
          timeZone: zone,
          now: ctx.now?.() ?? new Date(),
        });
      }
      await updateIndex(ctx.paths, ctx.config, { tiers: ['hot'], logger: ctx.logger, now: ctx.now });
      return n > 0;
    },
    { waitMs: ctx.lockWaitMs ?? 20_000 },
  );
  ctx.logger?.log('info', 'remember', {
    id: observation.id,
    agent: ctx.agent,
    added,
    masked: masked.count,
    client: observation.provenance!.session,
  });
  return { observation, added, path: dayFilePath(ctx.paths, 'hot', ctx.agent, date), masked: masked.count, ...(note ? { note } : {}) };
}
