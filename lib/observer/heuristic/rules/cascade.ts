/**
 * The heuristic Observer's rules for one sentence, as data: an ordered list
 * (CASCADE) of what a sentence is — filler, question or statement, its
 * category and priority — each with the condition that decides it. The first
 * rule whose condition holds wins. English (en.ts) and Korean
 * (ko.ts) share this cascade; each language supplies its patterns (one
 * per `Pattern` name) and the few judgements that differ by script
 * (`Language`). Pure functions.
 *
 * Add or change a rule here (one entry). A rule that needs a pattern no rule
 * used before: add its name to `Pattern`, and the compiler asks each
 * language's pattern table for it (`null` where a language has none).
 */
import type { Priority } from '../../../core/types.js';

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

/** The patterns the rules test, by name; each language has a table of them (see en.ts, ko.ts). */
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
  /** Done in spare time: "in the evenings", "on weekends", "as a hobby" (a pursuit of the person, not the task at hand). */
  | 'pastime'
  /** Something that happened ("we went", "I visited"). */
  | 'pastVerb'
  /** A hedged or passing opinion ("feels a bit bloated", "좀 밋밋한 것 같아요"). */
  | 'hedge';

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
  /**
   * A sentence in each language that this rule classifies and no earlier rule does, said by the user
   * with no date in it (EXAMPLE_CONTEXT). It documents the rule, and
   * test/observer/heuristic/observer-rules-cascade.test.ts checks that every rule is reached by its examples.
   */
  examples: { en: string; ko: string };
}

/** The context the rules' examples are classified in: the user speaking, no names, no resolved date. */
export const EXAMPLE_CONTEXT: AnalysisContext = { names: [], futureDate: false, pastDate: false, role: 'user' };

/** Something got finished (and is not said to be unfinished, nor dated in the future). */
function finished(s: Sentence, ctx: AnalysisContext): boolean {
  return s.has('done') && !s.has('notDone') && !ctx.futureDate;
}

/** First match wins. */
export const CASCADE: readonly Rule[] = [
  {
    name: 'chit-chat',
    examples: { en: 'Thanks so much!', ko: '고마워요' },
    kind: 'filler',
    category: 'fact',
    priority: 'low',
    when: (s) => s.contentWords === 0 || s.language.isChitChat(s.text, s.contentWords),
  },
  {
    name: 'question without a topic',
    examples: { en: 'Where is the pizza?', ko: '점심?' },
    kind: 'filler',
    category: 'fact',
    priority: 'low',
    when: (s) => s.language.isQuestion(s.text) && !s.language.questionHasTopic(s.text, s.contentWords),
  },
  {
    name: 'question',
    examples: { en: 'Which database should we use for the billing service?', ko: '결제 모듈은 어떤 데이터베이스를 쓰나요?' },
    kind: 'question',
    category: 'task',
    priority: 'medium',
    when: (s) => s.language.isQuestion(s.text),
  },
  {
    name: 'finished task',
    examples: { en: 'I fixed the login bug.', ko: '로그인 버그를 수정했어요.' },
    kind: 'statement',
    category: 'task',
    priority: 'medium',
    done: true,
    when: (s, ctx) => finished(s, ctx) && s.has('taskObject'),
  },
  {
    name: 'finished',
    examples: { en: 'I finished dinner.', ko: '마라톤을 끝냈어요.' },
    kind: 'statement',
    category: 'event',
    priority: 'medium',
    when: finished,
  },
  {
    name: 'decision',
    examples: { en: 'We decided to use Postgres for the billing service.', ko: '결제 서비스에 Postgres를 쓰기로 했어요.' },
    kind: 'statement',
    category: 'decision',
    priority: 'high',
    when: (s) => s.has('decision'),
  },
  {
    name: 'preference',
    examples: { en: 'I prefer TypeScript over JavaScript.', ko: '저는 타입스크립트를 선호해요.' },
    kind: 'statement',
    category: 'preference',
    priority: 'high',
    when: (s) => s.has('preference'),
  },
  {
    name: 'deadline',
    examples: { en: 'The deadline for the report is close.', ko: '보고서 마감이 다가와요.' },
    kind: 'statement',
    category: 'task',
    priority: 'high',
    when: (s, ctx) =>
      (ctx.futureDate && (s.has('deadlineWord') || s.has('byDate') || s.has('task') || s.has('request'))) ||
      (s.has('byDate') && (ctx.futureDate || s.has('explicitDate') || s.has('task'))) ||
      s.has('deadline'),
  },
  // Moving home, a new job: who the speaker is changes (docs/priorities.md: 🔴).
  {
    name: "the speaker's life changes",
    examples: { en: 'I moved to Lisbon with my family.', ko: '부산으로 이사했어요.' },
    kind: 'statement',
    category: 'state',
    priority: 'high',
    when: (s) => s.has('state') && s.has('profile'),
  },
  {
    name: 'state change',
    examples: { en: 'I switched to Neovim.', ko: 'Neovim으로 바꿨어요.' },
    kind: 'statement',
    category: 'state',
    priority: 'medium',
    when: (s) => s.has('state'),
  },
  {
    // Struggling is the user's state; an assistant explaining an error is a plain fact.
    name: 'about the speaker',
    examples: { en: 'I work as a nurse in Seoul.', ko: '요즘 허리 통증 때문에 힘들어요.' },
    kind: 'statement',
    category: 'fact',
    priority: 'high',
    when: (s, ctx) => (ctx.role === 'user' && s.has('struggle')) || s.has('profile'),
  },
  {
    // "I'm also writing a novel in the evenings": who the speaker is, not the task of this session.
    name: 'pastime',
    examples: { en: "I'm learning the guitar on weekends.", ko: '주말마다 기타를 배우고 있어요.' },
    kind: 'statement',
    category: 'fact',
    priority: 'medium',
    when: (s) => s.has('working') && s.has('pastime'),
  },
  {
    // Requests and imperatives are tasks only from the user (from the assistant they are advice).
    name: 'task',
    examples: { en: 'I need to renew my passport.', ko: '여권을 갱신해야 해요.' },
    kind: 'statement',
    category: 'task',
    priority: 'medium',
    when: (s, ctx) => s.has('task') || s.has('working') || (ctx.role === 'user' && s.has('request')),
  },
  {
    name: 'past event',
    examples: { en: 'We visited the museum.', ko: '박물관에 다녀왔어요.' },
    kind: 'statement',
    category: 'event',
    priority: 'medium',
    when: (s, ctx) => ctx.pastDate || s.has('pastVerb'),
  },
  // A passing opinion names things but is no fact of the work (docs/priorities.md: 🟢).
  {
    name: 'opinion',
    examples: { en: 'The dashboard feels a bit cluttered.', ko: '디자인이 좀 밋밋한 것 같아요.' },
    kind: 'statement',
    category: 'fact',
    priority: 'low',
    when: (s) => s.has('hedge') && !/\d/.test(s.text),
  },
  {
    name: 'specific fact',
    examples: { en: 'The cluster has 12 nodes.', ko: '클러스터 노드는 12개예요.' },
    kind: 'statement',
    category: 'fact',
    priority: 'medium',
    when: (s) => s.language.isSpecific(s.text, s.contentWords),
  },
  { name: 'fact', examples: { en: 'It rains.', ko: '비가 와요.' }, kind: 'statement', category: 'fact', priority: 'low', when: () => true },
];

/** The first rule of the cascade that holds for one sentence (already stripped of vocatives and interjections). */
export function firstRule(
  language: Language,
  text: string,
  ctx: AnalysisContext,
): { rule: Rule; contentWords: number; has(pattern: Pattern): boolean } {
  const { contentWords, has } = language.read(text, ctx.names);
  const sentence: Sentence = { text, contentWords, has, language };
  return { rule: CASCADE.find((r) => r.when(sentence, ctx))!, contentWords, has };
}

/** Classify one sentence (already stripped of vocatives and interjections) by the first rule of the cascade that holds. */
export function analyse(language: Language, text: string, ctx: AnalysisContext): SentenceAnalysis {
  const { rule, contentWords, has } = firstRule(language, text, ctx);
  return {
    kind: rule.kind,
    category: rule.category,
    priority: rule.priority,
    done: rule.done ?? false,
    contentWords,
    // A pastime ("writing a novel in the evenings") is not the work at hand.
    working: rule.kind !== 'filler' && has('working') && !has('pastime'),
  };
}
