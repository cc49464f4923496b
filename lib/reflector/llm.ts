/**
 * The LLM Reflector: one chat call per period, prompt from
 * prompts/reflector.md (overridable from the home). The answer is parsed
 * with the observation line format under date headers; dates outside the
 * period are moved to its nearest end, lines without a date go to the
 * period's end; an answer with no usable line is malformed (retried).
 */
import type { LlmClient } from '../llm/client.js';
import { MalformedOutputError } from '../llm/errors.js';
import type { Logger } from '../platform/log.js';
import { maskSecrets } from '../masking/masking.js';
import { oneLine, parseObservationContent } from '../memory/observation-line.js';
import { countTokens } from '../core/tokens.js';
import { renderObservations } from '../memory/reflection-text.js';
import { isControlTag, screenLine } from '../memory/suspicious.js';
import type { ReflectionDraft, ReflectionInput, ReflectionLine, Reflector } from './types.js';

const DATE_HEADER = /^#{1,6}\s*\**(\d{4}-\d{2}-\d{2})\b/;
const BULLET = /^(?:[-*+•]|\d{1,3}[.)])\s+/;

export function parseReflectorOutput(
  answer: string,
  input: ReflectionInput,
): { lines: ReflectionLine[]; repaired: number; dropped: number } {
  const text = answer
    .replace(/^\s*```[a-z]*\s*\n?/i, '')
    .replace(/\n?```\s*$/, '')
    .trim();
  const lines: ReflectionLine[] = [];
  let date: string | undefined;
  let repaired = 0;
  let dropped = 0;
  const clamp = (d: string) => (d < input.periodStart ? input.periodStart : d > input.periodEnd ? input.periodEnd : d);
  // The model's lines follow the Observers' rules (memory/suspicious.ts): a control tag only where an input line had it.
  const earned = new Set(input.observations.flatMap((o) => o.tags.filter(isControlTag).map((t) => t.toLowerCase())));
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || /^-{3,}$/.test(line)) continue;
    const header = DATE_HEADER.exec(line);
    if (header) {
      date = clamp(header[1]!);
      if (date !== header[1]) repaired++;
      continue;
    }
    const bullet = BULLET.exec(line);
    const content = bullet ? line.slice(bullet[0].length) : line;
    let parsed = parseObservationContent(content);
    if (!parsed && bullet && /\p{L}{2,}.*\s.*\p{L}{2,}/u.test(content)) {
      parsed = parseObservationContent(`🟡 ${content}`);
      repaired++;
    } else if (parsed && !bullet) repaired++;
    if (!parsed || parsed.text.length < 3) {
      dropped++;
      continue;
    }
    lines.push(
      screenLine(
        {
          date: date ?? input.periodEnd,
          priority: parsed.priority,
          done: parsed.done,
          category: parsed.category,
          text: oneLine(maskSecrets(parsed.text).text),
          tags: parsed.tags,
        },
        earned,
      ),
    );
    if (!date) repaired++;
  }
  if (lines.length === 0)
    throw new MalformedOutputError(`no usable reflection line in the answer (${dropped} unreadable lines)`, text.slice(0, 200));
  if (dropped > 2 * lines.length + 2)
    throw new MalformedOutputError(`${dropped} unreadable lines against ${lines.length} reflection lines`, text.slice(0, 200));
  lines.sort((a, b) => a.date.localeCompare(b.date));
  return { lines, repaired, dropped };
}

export function createLlmReflector(options: { client: LlmClient; prompt: string; logger: Logger; targetRatio?: number }): Reflector {
  const { client, logger } = options;
  return {
    kind: 'llm',
    label: `llm ${client.label}`,
    async reflect(input: ReflectionInput): Promise<ReflectionDraft> {
      const source = renderObservations(input.observations);
      const aim = Math.max(100, Math.round(countTokens(source) / (options.targetRatio ?? 5)));
      const user = `Period ${input.periodStart} → ${input.periodEnd}. Aim for about ${aim} tokens.\n\n${source}`;
      const result = await client.chat({ system: options.prompt, user, parse: (answer) => parseReflectorOutput(answer, input) });
      if (result.value.repaired > 0 || result.value.dropped > 0) {
        logger.log('info', 'reflector.output_repaired', {
          period: `${input.periodStart}..${input.periodEnd}`,
          repaired: result.value.repaired,
          dropped: result.value.dropped,
        });
      }
      return { lines: result.value.lines, usage: result.usage };
    },
  };
}
