/**
 * One observation in the making (Draft), before the batch's list gives it an
 * id: its text, category, priority and tags, the message it comes from and
 * the entries it also covers. A group of a message's informative pieces
 * becomes one draft (flushGroup).
 */
import type { Message, Priority } from '../../core/types.js';
import { detectTags } from './tags.js';
import type { LocalDateTime } from './time.js';
import { finishSentence, finishText } from './finish-text.js';
import { attribute } from './attribution.js';
import type { Piece } from './pieces.js';

export const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2 };

export const GROUP_RANK: Record<string, number> = { fact: 0, event: 1, state: 2, task: 3, preference: 4, decision: 5 };

/** One observation in the making. */
export class Draft {
  /** Entry id of the question this observation quotes as its context. */
  contextEntryId: string | undefined = undefined;
  /**
   * Entry ids of later turns this observation covers: replies that only reacted to its message ("Congrats,
   * that's huge!"), and the follow-up question and answer merged into it.
   */
  reactionEntryIds: string[] | undefined = undefined;
  /** A question whose answer's observation quotes it: not written on its own. */
  answered = false;
  /** The question's topic added to the text ("… (on: work out together)"), and the text before it was. */
  topic: { of: string; before: string } | undefined = undefined;

  constructor(
    public category: string,
    /** Raised when the speaker asks to remember it ("please remember that"). */
    public priority: Priority,
    public done: boolean,
    /** Always from finishText(): one line, as oneLine() gives it. */
    public text: string,
    public tags: string[],
    readonly message: Message,
    readonly local: LocalDateTime,
    readonly working: boolean,
    readonly question: boolean,
    readonly role: 'user' | 'assistant',
  ) {}
}

/** The message being drafted: what every draft of it shares. */
export interface DraftScope {
  message: Message;
  role: 'user' | 'assistant';
  local: LocalDateTime;
  speaker: string;
  /** Names that are not tags: the speaker and both parties. */
  notTags: string[];
  codeLanguages: string[];
  maxSentences: number;
  maxChars: number;
  select: boolean;
  /** The batch's drafts, appended to. */
  drafts: Draft[];
}

/** The message an observation comes from, then the question it quotes. */
export function entryIdsOf(d: Draft): string[] {
  const ids = [d.message.entryId];
  if (d.contextEntryId) ids.push(d.contextEntryId);
  if (d.reactionEntryIds) for (const id of d.reactionEntryIds) if (!ids.includes(id)) ids.push(id);
  return ids;
}

/** The `n` pieces that say the most (the earlier of equals), in the order they were said. */
function mostWorth(group: Piece[], n: number): Piece[] {
  const chosen = new Set(
    group
      .map((p, i) => ({ p, i }))
      .sort((a, b) => b.p.worth - a.p.worth || a.i - b.i)
      .slice(0, n)
      .map((x) => x.p),
  );
  return group.filter((p) => chosen.has(p));
}

/** One observation of the informative sentences gathered so far (at most maxSentences); empties `group`. */
export function flushGroup(group: Piece[], scope: DraftScope): void {
  if (group.length === 0) return;
  const kept = group.length <= scope.maxSentences ? group : mostWorth(group, scope.maxSentences);
  // The group's category is its strongest sentence's: task, state, event, fact.
  let category: string = 'fact';
  let done = false;
  let working = false;
  let priority: Priority = 'low';
  for (const { analysis: a } of kept) {
    if (GROUP_RANK[a.category]! > GROUP_RANK[category]!) {
      category = a.category;
      done = a.done;
    }
    if (a.working) working = true;
    if (PRIORITY_RANK[a.priority] > PRIORITY_RANK[priority]) priority = a.priority;
  }
  const body = kept.map((p) => finishSentence(p.body)).join(' ');
  const text = finishText(attribute(body, scope.speaker, kept[0]!.korean, scope.select, category === 'decision'), scope.maxChars);
  const made = draft(text, category, priority, done, working, false, scope, body);
  for (const p of kept) p.draft = made;
  scope.drafts.push(made);
  group.length = 0;
}

/** `said`: the text before attribution ("User said …" changes where a sentence starts). */
export function draft(
  text: string,
  category: string,
  priority: Priority,
  done: boolean,
  working: boolean,
  question: boolean,
  scope: DraftScope,
  said = text,
): Draft {
  const speaker = scope.speaker;
  // Tags from what was said, not from the attribution ("Speaker: ") added in front of it.
  const attributed = said.startsWith(`${speaker}: `);
  const tags = detectTags(attributed ? said.slice(speaker.length + 2) : said, scope.codeLanguages, 3, scope.notTags);
  return new Draft(category, priority, done, text, tags, scope.message, scope.local, working, question, scope.role);
}
