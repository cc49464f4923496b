/**
 * The heuristic Observer's rules for one sentence, as data: an ordered list
 * (CASCADE) of what a sentence is — filler, question or statement, its
 * category and priority — each with the condition that decides it. The first
 * rule whose condition holds wins. English (rules-en.ts) and Korean
 * (rules-ko.ts) share this cascade; each language supplies its patterns (one
 * per `Pattern` name) and the few judgements that differ by script
 * (`Language`). Pure functions.
 *
 * Add or change a rule here (one entry). A rule that needs a pattern no rule
 * used before: add its name to `Pattern`, and the compiler asks each
 * language's pattern table for it (`null` where a language has none).
 */
import type { Priority } from '../core/types.js';

export interface SentenceAnalysis {
  kind: 'filler' | 'question' | 'statement';
  category: 'preference' | 'decision' | 'task' | 'state' | 'fact' | 'event';
  priority: Priority;
  done: boolean;
  /** Words that carry content (not stop words, filler or speaker names). */
  contentWords: number;
  /** The speaker says what they are working on now. */
  working: boolean;
}

export interface AnalysisContext {
  /** Names of the speakers (ignored as content, stripped as vocatives). */
  names: string[];
  /** A resolved relative date in the sentence points to the future. */
  futureDate: boolean;
  /** A resolved relative date in the sentence points to the past. */
  pastDate: boolean;
  /** Who says it: requests and imperatives are tasks only from the user (from the assistant they are advice). */
  role: 'user' | 'assistant';
}

/** The patterns the rules test, by name; each language has a table of them (see rules-en.ts, rules-ko.ts). */
export type Pattern =
  /** Something got finished ("I fixed the build"). */
  | 'done'
  /** …said as not finished ("it's not done yet"). */
  | 'notDone'
  /** Work-ish objects: a completion about these is a finished task. */
  | 'taskObject'
  | 'decision'
  | 'preference'
  /** Words of a dated obligation (deadline, demo, exam…). */
  | 'deadlineWord'
  /** The word "deadline" itself. */
  | 'deadline'
  /** "by Friday", "before the 3rd". */
  | 'byDate'
  /** A date written out ("2026-04-10", "April 3rd"). */
  | 'explicitDate'
  /** A change of state ("switched to", "no longer"). */
  | 'state'
  /** The speaker struggles with something. */
  | 'struggle'
  /** Who the speaker is: name, work, home, family. */
  | 'profile'
  /** Something to do ("I need to", "todo"). */
  | 'task'
  /** A request to the other party ("can you add…"). */
  | 'request'
  /** The speaker says what they are working on now. */
  | 'working'
  /** Something that happened ("we went", "I visited"). */
  | 'pastVerb';

/** What a language tells about one sentence. */
export interface Language {
  /** Words that carry content, and a test of the language's patterns, for one sentence. */
  read(sentence: string, names: string[]): { contentWords: number; has(pattern: Pattern): boolean };
  /** Chit-chat beyond having no content word ("thanks so much", a closing offer). */
  isChitChat(sentence: string, contentWords: number): boolean;
  isQuestion(sentence: string): boolean;
  /** A question with something to remember (not "how are you?"). */
  questionHasTopic(sentence: string, contentWords: number): boolean;
  /** A plain fact specific enough for medium priority (numbers, names, several content words). */
  isSpecific(sentence: string, contentWords: number): boolean;
}

/** One sentence as the rules' conditions see it. */
export interface Sentence {
  text: string;
  contentWords: number;
  has(pattern: Pattern): boolean;
  language: Language;
}

/** One rule of the cascade: what a sentence is when `when` holds (and no earlier rule's did). */
export interface Rule {
  name: string;
  kind: SentenceAnalysis['kind'];
  category: SentenceAnalysis['category'];
  priority: Priority;
  /** A finished task (✅). */
  done?: true;
  when(sentence: Sentence, ctx: AnalysisContext): boolean;
}

/** Something got finished (and is not said to be unfinished, nor dated in the future). */
function finished(s: Sentence, ctx: AnalysisContext): boolean {
  return s.has('done') && !s.has('notDone') && !ctx.futureDate;
}

/** First match wins. */
export const CASCADE: readonly Rule[] = [
  {
    name: 'chit-chat',
    kind: 'filler',
    category: 'fact',
    priority: 'low',
    when: (s) => s.contentWords === 0 || s.language.isChitChat(s.text, s.contentWords),
  },
  {
    name: 'question without a topic',
    kind: 'filler',
    category: 'fact',
    priority: 'low',
    when: (s) => s.language.isQuestion(s.text) && !s.language.questionHasTopic(s.text, s.contentWords),
  },
  { name: 'question', kind: 'question', category: 'task', priority: 'medium', when: (s) => s.language.isQuestion(s.text) },
  { name: 'finished task', kind: 'statement', category: 'task', priority: 'medium', done: true, when: (s, ctx) => finished(s, ctx) && s.has('taskObject') },
  { name: 'finished', kind: 'statement', category: 'event', priority: 'medium', when: finished },
  { name: 'decision', kind: 'statement', category: 'decision', priority: 'high', when: (s) => s.has('decision') },
  { name: 'preference', kind: 'statement', category: 'preference', priority: 'high', when: (s) => s.has('preference') },
  {
    name: 'deadline',
    kind: 'statement',
    category: 'task',
    priority: 'high',
    when: (s, ctx) =>
      (ctx.futureDate && (s.has('deadlineWord') || s.has('byDate') || s.has('task') || s.has('request'))) ||
      (s.has('byDate') && (ctx.futureDate || s.has('explicitDate'))) ||
      s.has('deadline'),
  },
  { name: 'state change', kind: 'statement', category: 'state', priority: 'medium', when: (s) => s.has('state') },
  {
    // Struggling is the user's state; an assistant explaining an error is a plain fact.
    name: 'about the speaker',
    kind: 'statement',
    category: 'fact',
    priority: 'high',
    when: (s, ctx) => (ctx.role === 'user' && s.has('struggle')) || s.has('profile'),
  },
  {
    // Requests and imperatives are tasks only from the user (from the assistant they are advice).
    name: 'task',
    kind: 'statement',
    category: 'task',
    priority: 'medium',
    when: (s, ctx) => s.has('task') || s.has('working') || (ctx.role === 'user' && s.has('request')),
  },
  { name: 'past event', kind: 'statement', category: 'event', priority: 'medium', when: (s, ctx) => ctx.pastDate || s.has('pastVerb') },
  { name: 'specific fact', kind: 'statement', category: 'fact', priority: 'medium', when: (s) => s.language.isSpecific(s.text, s.contentWords) },
  { name: 'fact', kind: 'statement', category: 'fact', priority: 'low', when: () => true },
];

/** Classify one sentence (already stripped of vocatives and interjections) by the first rule of the cascade that holds. */
export function analyse(language: Language, text: string, ctx: AnalysisContext): SentenceAnalysis {
  const { contentWords, has } = language.read(text, ctx.names);
  const sentence: Sentence = { text, contentWords, has, language };
  const rule = CASCADE.find((r) => r.when(sentence, ctx))!;
  return {
    kind: rule.kind,
    category: rule.category,
    priority: rule.priority,
    done: rule.done ?? false,
    contentWords,
    working: rule.kind !== 'filler' && has('working'),
  };
}
