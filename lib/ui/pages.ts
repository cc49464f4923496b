/**
 * The dashboard's pages, rendered on the server with hono's `html` tagged
 * template (every interpolated value is HTML-escaped; only fragments built
 * here are passed through). Forms post to the server and come back as a
 * redirect, so every page works with the keyboard alone and without script;
 * templates/ui/ui.js adds keyboard shortcuts and draws the charts with uPlot.
 * Every text that comes from memory files, logs or state has been masked by
 * the caller (lib/ui/app.ts).
 */
import { html, raw } from 'hono/html';
import type { LocatedObservation } from '../memory/day-file/index.js';
import { PRIORITY_EMOJI } from '../memory/observation-line.js';
import type { Snippet } from '../search/snippet.js';
import type { Priority, Provenance, Tier } from '../core/types.js';
import { codeWord, type CodeWords, type Lang, type Messages } from './messages.js';

export type Html = ReturnType<typeof html>;

export interface PageFrame {
  lang: Lang;
  m: Messages;
  /** The path of this page (for the language switch and `back`). */
  here: string;
  section: 'timeline' | 'search' | 'active' | 'tiers' | 'health' | 'file' | 'error';
  /** A short notice after a change (already masked). */
  notice?: string;
}

export interface ObservationView extends LocatedObservation {
  tier: Tier;
  file: string;
  pinned: boolean;
  anonymous: boolean;
  /** Snippet with highlights (search results). */
  snippet?: Snippet;
}

function withParam(path: string, key: string, value: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set(key, value);
  return `${url.pathname}${url.search}`;
}

/** A priority as its emoji and its word: a system without an emoji font shows boxes, a screen reader reads the word. */
export function priorityBadge(m: Messages, p: Priority): Html {
  return html`<span class="pri">${PRIORITY_EMOJI[p]} <span class="word">${priorityLabel(m, p)}</span></span>`;
}

export function priorityLabel(m: Messages, p: Priority): string {
  return p === 'high' ? m.priorityHigh : p === 'medium' ? m.priorityMedium : m.priorityLow;
}

export function tierLabel(m: Messages, t: Tier): string {
  return t === 'hot' ? m.tierHot : t === 'warm' ? m.tierWarm : m.tierCold;
}

/**
 * A value the program wrote as a code (an audit entry's action or count, a job's name, a source's kind) in
 * the page's words, the code itself in the title; a code the dashboard has no word for as written (lang="en").
 */
export function codeLabel(frame: PageFrame, group: Exclude<keyof CodeWords, 'why'>, code: string): Html | string {
  const word = codeWord(frame.lang, group, code);
  if (word === undefined) return html`<span lang="en">${code}</span>`;
  return word === code ? code : html`<span title="${code}">${word}</span>`;
}

export function layout(frame: PageFrame, title: string, body: Html | Html[]): Html {
  const { m } = frame;
  const nav: Array<[PageFrame['section'], string, string, string]> = [
    ['timeline', '/', m.navTimeline, 't'],
    ['search', '/search', m.navSearch, 's'],
    ['active', '/active', m.navActive, 'a'],
    ['tiers', '/tiers', m.navTiers, 'i'],
    ['health', '/health', m.navHealth, 'h'],
  ];
  const other: Lang = frame.lang === 'ko' ? 'en' : 'ko';
  return html`<!doctype html>
<html lang="${frame.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${m.title}</title>
<link rel="stylesheet" href="/assets/ui.css">
<link rel="stylesheet" href="/assets/uplot.css">
<script src="/assets/uplot.js" defer></script>
<script src="/assets/ui.js" defer></script>
</head>
<body data-section="${frame.section}">
<a class="skip" href="#main">${m.skip}</a>
<header>
<nav aria-label="${m.title}">
<strong class="brand">${m.title}</strong>
${nav.map(([section, href, label, key]) => html`<a href="${href}" data-key="${key}"${section === frame.section ? raw(' aria-current="page"') : ''}>${label}</a>`)}
<a class="lang" href="${withParam(frame.here, 'lang', other)}" hreflang="${other}">${m.language}</a>
</nav>
</header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${body}
</main>
<footer><p class="keys">${m.keyboardHelp}</p></footer>
</body>
</html>`;
}

function provenanceText(m: Messages, p: Provenance | undefined): Html | string {
  if (!p) return '';
  const entries = p.entryIds.slice(0, 3).join(', ') + (p.entryIds.length > 3 ? ` … (+${p.entryIds.length - 3})` : '');
  return html`<span class="prov">${m.from} ${p.source} · ${p.agent}${p.session ? html` · ${m.session} <code>${p.session}</code>` : ''}${entries ? html` · ${m.entries} <code>${entries}</code>` : ''}</span>`;
}

export function highlighted(snippet: Snippet): Html {
  const parts: Array<Html | string> = [];
  let at = 0;
  for (const [s, e] of snippet.highlights) {
    if (s < at) continue;
    parts.push(snippet.text.slice(at, s), html`<mark>${snippet.text.slice(s, e)}</mark>`);
    at = e;
  }
  parts.push(snippet.text.slice(at));
  return html`${parts}`;
}

function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/** One observation with its provenance, its line in the day file and what can be done to it. */
export function observationItem(frame: PageFrame, o: ObservationView, back: string): Html {
  const { m } = frame;
  const fileLink = `/file?path=${encodeURIComponent(o.file)}#L${o.startLine}`;
  const actions = o.anonymous
    ? ''
    : html`<div class="actions">
<a href="/observation?file=${encodeURIComponent(o.file)}&amp;id=${encodeURIComponent(o.id)}&amp;back=${encodeURIComponent(back)}" data-action="edit">${m.edit}</a>
<form method="post" action="/observation/pin">${hidden('file', o.file)}${hidden('id', o.id)}${hidden('back', back)}${hidden('pinned', o.pinned ? 'false' : 'true')}<button type="submit">${o.pinned ? m.unpin : m.pin}</button></form>
<form method="post" action="/observation/done">${hidden('file', o.file)}${hidden('id', o.id)}${hidden('back', back)}${hidden('done', o.done ? 'false' : 'true')}<button type="submit">${o.done ? m.markOpen : m.markDone}</button></form>
<a href="/observation/forget?file=${encodeURIComponent(o.file)}&amp;id=${encodeURIComponent(o.id)}&amp;back=${encodeURIComponent(back)}" data-action="forget">${m.forget}</a>
</div>`;
  return html`<li class="obs priority-${o.priority}" id="${o.id}" tabindex="-1" data-id="${o.id}" data-file="${o.file}" data-line="${o.startLine}">
<div class="line">${priorityBadge(m, o.priority)}${o.done ? html`<span class="done">✅ <span class="word">${m.done}</span></span>` : ''}
${o.time ? html`<time>${o.time}</time>` : ''} <span class="cat">${codeLabel(frame, 'category', o.category)}</span>
<span class="text">${o.snippet ? highlighted(o.snippet) : o.text}</span>
${o.tags.map((t) => html` <span class="tag">#${t}</span>`)}${o.pinned ? html` <span class="badge">${m.pinned}</span>` : ''}${o.mark ? html` <span class="badge mark" title="${o.mark.kind === 'done' ? m.done : m.superseded}">(${o.mark.kind}${o.mark.date ? ` ${o.mark.date}` : ''}${o.mark.by ? ` by ${o.mark.by}` : ''})</span>` : ''}</div>
<div class="meta"><span class="agent">${o.agent}</span> · <span class="tier">${tierLabel(m, o.tier)}</span>${o.snippet ? html` · ${o.date}` : ''} · <code class="oid">${o.id}</code> · ${provenanceText(m, o.provenance)} · ${m.inFile} <a href="${fileLink}" class="fileline">${o.file}:${o.startLine}</a></div>
${actions}
</li>`;
}

export interface FilterValues {
  agent?: string;
  priority?: string;
  category?: string;
  tier?: string;
  tag?: string;
  since?: string;
  until?: string;
}

export function filterForm(frame: PageFrame, action: string, values: FilterValues, agents: string[], extra: Html | string = ''): Html {
  const { m } = frame;
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}"${value === (current ?? '') ? raw(' selected') : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="${action}" role="search">
${extra}
<label>${m.filterAgent} <select name="agent">${option('', m.any, values.agent)}${agents.map((a) => option(a, a, values.agent))}</select></label>
<label>${m.filterPriority} <select name="priority">${option('', m.any, values.priority)}${(['high', 'medium', 'low'] as const).map((p) => option(p, `${PRIORITY_EMOJI[p]} ${priorityLabel(m, p)}`, values.priority))}</select></label>
<label>${m.filterCategory} <input name="category" value="${values.category ?? ''}" size="10" list="categories"></label>
<datalist id="categories"><option value="decision"><option value="preference"><option value="task"><option value="fact"><option value="event"><option value="state"></datalist>
<label>${m.filterTier} <select name="tier">${option('', m.any, values.tier)}${(['hot', 'warm', 'cold'] as const).map((t) => option(t, tierLabel(m, t), values.tier))}</select></label>
<label>${m.filterTag} <input name="tag" value="${values.tag ?? ''}" size="8"></label>
<label>${m.filterSince} <input name="since" value="${values.since ?? ''}" size="10" placeholder="YYYY-MM-DD / 7d"></label>
<label>${m.filterUntil} <input name="until" value="${values.until ?? ''}" size="10" placeholder="YYYY-MM-DD"></label>
<button type="submit">${m.filterApply}</button>
</form>`;
}

export function addForm(frame: PageFrame, agents: string[], back: string): Html {
  const { m } = frame;
  const list = agents.includes('main') ? agents : ['main', ...agents];
  return html`<details class="add"><summary>${m.addTitle}</summary>
<form method="post" action="/observation/add">${hidden('back', back)}
<label>${m.addText} <textarea name="text" rows="2" cols="60" required></textarea></label>
<label>${m.priority} <select name="priority">${(['high', 'medium', 'low'] as const).map((p) => html`<option value="${p}">${PRIORITY_EMOJI[p]} ${priorityLabel(m, p)}</option>`)}</select></label>
<label>${m.category} <input name="category" value="fact" size="10" list="categories"></label>
<label>${m.tags} <input name="tags" size="16"></label>
<label>${m.addAgent} <select name="agent">${list.map((a) => html`<option value="${a}"${a === 'main' ? raw(' selected') : ''}>${a}</option>`)}</select></label>
<button type="submit">${m.addSave}</button>
</form></details>`;
}

export function editForm(frame: PageFrame, o: ObservationView, back: string): Html {
  const { m } = frame;
  // `shown`: the text as the page shows it (masked), so a save that leaves it as it was does not rewrite it (lib/ui/app.ts).
  return html`<form class="edit" method="post" action="/observation/edit">${hidden('file', o.file)}${hidden('id', o.id)}${hidden('back', back)}${hidden('shown', o.text)}
<p class="meta">${o.date} ${o.time} · ${o.agent} · ${tierLabel(m, o.tier)} · <code>${o.id}</code> · <a href="/file?path=${encodeURIComponent(o.file)}#L${o.startLine}">${o.file}:${o.startLine}</a></p>
<label>${m.text}<br><textarea name="text" rows="4" cols="80" required autofocus>${o.text}</textarea></label>
<label>${m.priority} <select name="priority">${(['high', 'medium', 'low'] as const).map((p) => html`<option value="${p}"${p === o.priority ? raw(' selected') : ''}>${PRIORITY_EMOJI[p]} ${priorityLabel(m, p)}</option>`)}</select></label>
<label>${m.category} <input name="category" value="${o.category}" size="12" list="categories"></label>
<label>${m.tags} <input name="tags" value="${o.tags.join(' ')}" size="30"></label>
<label><input type="checkbox" name="done" value="true"${o.done ? raw(' checked') : ''}> ${m.isDone}</label>
<p><button type="submit">${m.save}</button> <a href="${back}">${m.cancel}</a></p>
</form>
<form class="mark" method="post" action="/observation/mark">${hidden('file', o.file)}${hidden('id', o.id)}${hidden('back', back)}
<fieldset><legend>${m.markTitle}</legend>
<label><input type="radio" name="mark" value="clear"${o.mark ? '' : raw(' checked')}> ${m.markNone}</label>
<label><input type="radio" name="mark" value="done"${o.mark?.kind === 'done' ? raw(' checked') : ''}> ${m.markDoneOption}</label>
<label><input type="radio" name="mark" value="superseded"${o.mark?.kind === 'superseded' ? raw(' checked') : ''}> ${m.markSupersededOption}</label>
<label>${m.markBy} <input name="by" value="${o.mark?.by ?? ''}" size="14" pattern="\^?o-[0-9a-f]{6,}"></label>
<button type="submit">${m.markSave}</button></fieldset>
</form>`;
}

export function forgetForm(frame: PageFrame, o: ObservationView, back: string): Html {
  const { m } = frame;
  return html`<div class="forget"><p class="obs-text">${priorityBadge(m, o.priority)} ${o.text}</p><p class="meta">${o.date} · ${o.agent} · ${tierLabel(m, o.tier)} · <code>${o.id}</code></p>
<p class="warn">${m.forgetExplain}</p>
<form method="post" action="/observation/forget">${hidden('file', o.file)}${hidden('id', o.id)}${hidden('back', back)}
<button type="submit" class="danger" autofocus>${m.forgetConfirm}</button> <a href="${back}">${m.cancel}</a></form></div>`;
}

export function table(headers: string[], rows: Array<Array<Html | string | number>>, caption?: string): Html {
  return html`<table>${caption ? html`<caption>${caption}</caption>` : ''}<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>`;
}

/** A chart drawn by templates/ui/ui.js with uPlot from the JSON beside it (x: labels, xLabel: what they are, in the legend; series: named values; bars: categories, not a time line). */
/** Up to this many points a chart also lists its figures, and under 3 it draws bars: a line through one or two points is a trend nobody saw. */
const FEW_POINTS = 7;

export function chart(
  id: string,
  title: string,
  data: { x: string[]; xLabel: string; series: Array<{ label: string; values: Array<number | null> }>; bars?: boolean },
  empty: string,
): Html {
  if (data.x.length === 0) return html`<figure class="chart"><figcaption>${title}</figcaption><p class="empty">${empty}</p></figure>`;
  // The y axis starts at 0 and counts step by whole numbers (templates/ui/ui.js reads `integers`).
  const integers = data.series.every((s) => s.values.every((v) => v === null || Number.isInteger(v)));
  const drawn = { ...data, bars: data.bars === true || data.x.length < 3, integers };
  const figures =
    data.x.length <= FEW_POINTS
      ? html`<table class="chart-figures"><thead><tr><th>${data.xLabel}</th>${data.series.map((s) => html`<th>${s.label}</th>`)}</tr></thead><tbody>${data.x.map((x, i) => html`<tr><td>${x}</td>${data.series.map((s) => html`<td>${s.values[i] === null || s.values[i] === undefined ? '—' : String(s.values[i])}</td>`)}</tr>`)}</tbody></table>`
      : '';
  return html`<figure class="chart"><figcaption>${title}</figcaption><div class="plot" id="${id}" role="img" aria-label="${title}"></div>
<script type="application/json" data-chart="${id}">${raw(JSON.stringify(drawn).replace(/</g, '\\u003c'))}</script>${figures}</figure>`;
}

export function postButton(action: string, fields: Record<string, string>, label: string, className = ''): Html {
  return html`<form method="post" action="${action}" class="inline">${Object.entries(fields).map(([k, v]) => hidden(k, v))}<button type="submit"${className ? raw(` class="${className}"`) : ''}>${label}</button></form>`;
}
