/** A memory file line by line (`/file`: the target of every "in memory/…:12" link), masked as a whole. */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { UiProblem } from '../problems.js';
import { layout, tierLabel } from '../pages.js';
import type { PageContext } from '../page-context.js';
import { readTextSteady } from '../../platform/atomic-file.js';

export function mountFile(app: Hono, page: PageContext): void {
  const { memory, mask, frameOf } = page;
  // A day file, line by line (the target of every "in memory/…:12" link)
  app.get('/file', async (c) => {
    const frame = frameOf(c, 'file');
    const ref = c.req.query('path') ?? '';
    const file = await memory.dayFile(ref);
    // A search result from a reflection links to its line as well.
    const reflection = file ? undefined : await memory.reflectionFile(ref);
    if (!file && !reflection) throw new UiProblem('NOT_FOUND', 'notAFile', { file: ref });
    const lines = maskedLines(await readTextSteady(file?.path ?? reflection!), mask);
    if (lines.at(-1) === '') lines.pop();
    const body = html`<p class="meta">${file ? `${tierLabel(frame.m, file.tier)} · ${file.agent} · ${file.date}` : frame.m.reflection}</p><ol class="file">${lines.map((line, i) => html`<li id="L${i + 1}"><code>${line}</code></li>`)}</ol>`;
    return c.html(layout(frame, ref, body));
  });
}

/**
 * A file's lines, masked, numbered as in the file. The whole text is masked at once (a private key spans
 * lines: masked line by line, its body could show); a secret over several lines becomes one
 * `[REDACTED:…]` line, so the lines it took after its first are shown as '⋯' and every later line keeps
 * its number — the target of a link `…/2026-04-10.md#L12` is line 12 of the file.
 */
export function maskedLines(text: string, mask: (text: string) => string): string[] {
  const original = text.split('\n');
  const masked = mask(text).split('\n');
  if (masked.length === original.length) return masked;
  const out: string[] = [];
  let i = 0;
  for (let k = 0; k < masked.length; k++) {
    out.push(masked[k]!);
    i++;
    const next = masked[k + 1];
    // Lines the k-th masked line stands for: while there are more file lines left than masked ones, and the
    // file's line is not the next masked line (as it is, or masked on its own).
    while (original.length - i > masked.length - (k + 1) && (next === undefined || (original[i] !== next && mask(original[i]!) !== next))) {
      out.push('⋯');
      i++;
    }
  }
  return out;
}
