/**
 * Active memory (`/active`): each agent's file against the budget, what the
 * suspicious-text detector holds out of every injection, and the last
 * injections the prompt hooks logged.
 */
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { DEFAULT_AGENT } from '../../platform/home.js';
import { headerTokens } from '../../api/index.js';
import { countTokens } from '../../core/tokens.js';
import { codeWord } from '../messages.js';
import { layout, table, type Html } from '../pages.js';
import type { PageContext } from '../page-context.js';

const INJECTIONS_SHOWN = 20;

export function mountActive(app: Hono, page: PageContext): void {
  const { config, memory, mask, frameOf, knownAgents } = page;
  app.get('/active', async (c) => {
    const frame = frameOf(c, 'active');
    const { m } = frame;
    const budget = config.active_memory.budget_tokens;
    const sections: Html[] = [];
    for (const agent of await knownAgents()) {
      const text = await memory.activeMemoryFile(agent);
      if (text === undefined && agent !== DEFAULT_AGENT) continue;
      // The count the builder wrote in the header line (exact BPE of a hand-edited file otherwise).
      const tokens = text ? (headerTokens(text) ?? countTokens(text)) : 0;
      sections.push(html`<section class="active" aria-labelledby="a-${agent}"><h2 id="a-${agent}">${agent}</h2>
${
  text
    ? html`<p class="tokens"><meter min="0" max="${budget}" value="${Math.min(tokens, budget)}" high="${Math.round(budget * 0.9)}"></meter> <strong data-tokens="${tokens}">${tokens}</strong> ${m.tokensOfBudget} ${budget}${tokens > budget ? html` <span class="warn">${m.overBudget}</span>` : ''}</p>
<pre class="active-text">${mask(text)}</pre>`
    : html`<p class="empty">${m.activeNone}</p>`
}</section>`);
    }
    const injections = await memory.recentInjections(INJECTIONS_SHOWN);
    const injectionRows = injections.map((r) => {
      const went = Array.isArray(r.injected)
        ? (r.injected as Array<{ id?: unknown; relevance?: unknown }>).filter((x) => typeof x?.id === 'string')
        : [];
      const what: Html | string =
        r.event === 'hook.session_start'
          ? `${m.activeTitle}: ${String(r.chars ?? 0)} ${m.injectedChars}`
          : went.length
            ? html`${went.map((x, i) => html`${i ? ', ' : ''}<a href="/search?q=${encodeURIComponent(String(x.id))}&amp;tier=hot,warm,cold"><code>${String(x.id)}</code></a>${typeof x.relevance === 'number' ? ` (${x.relevance})` : ''}`)}`
            : String(r.results ?? '');
      return [
        String(r.time ?? '')
          .slice(0, 19)
          .replace('T', ' '),
        String(r.event ?? ''),
        mask(String(r.agent ?? '')),
        String(r.via ?? ''),
        what,
        String(r.ms ?? ''),
      ];
    });
    // What the suspicious-text detector holds out of every injection (memory/suspicious.ts), for the user to review.
    const held = await memory.heldForReview();
    const heldRows = held
      .slice(0, 100)
      .map((h) => [
        html`<a href="/search?q=${encodeURIComponent(h.id)}&amp;tier=hot"><code>${h.id}</code></a>`,
        h.date,
        mask(h.agent),
        codeWord(frame.lang, 'suspicion', h.reason) ?? h.why,
        mask(h.text.length > 300 ? `${h.text.slice(0, 299)}…` : h.text),
      ]);
    const heldSection = html`<section class="held" id="held"><h2>${m.heldTitle} (${held.length})</h2><p class="hint">${m.heldNote}</p>
${heldRows.length ? table(['id', m.heldDate, m.filterAgent, m.heldWhy, m.observation], heldRows) : html`<p class="empty">${m.heldNone}</p>`}</section>`;
    const body = html`${sections}${heldSection}<section><h2>${m.injectionsTitle}</h2><p class="hint">${m.injectionsNote}</p>
${injectionRows.length ? table([m.time, m.event, m.filterAgent, m.via, m.injectedWhat, 'ms'], injectionRows) : html`<p class="empty">${m.injectionsNone}</p>`}</section>`;
    return c.html(layout(frame, m.activeTitle, body));
  });
}
