/**
 * A sentence that only points at what the other speaker just said ("Let's go
 * with that", "그걸로 가자"), and the gist of that message it is completed with.
 */
import type { Message } from '../../core/types.js';
import { KOREAN_ROLE_LABEL } from './rules/ko.js';
import { isKorean } from './sentences.js';
import type { SpeakerNames } from './speakers.js';
import { anyOf, pattern } from '../../core/pattern.js';

/** What the other speaker said last, for a sentence that only points at it ("Let's go with that"). */
export interface SaidBefore {
  entryId: string;
  timeMs: number;
  /** Its first observation, without the attribution: "Litestream to replicate the SQLite file to B2". */
  gist: string;
  /** The entry of the question the gist begins with ("what about sqlite + litestream — …"), when it answered one. */
  askedEntryId?: string;
  /** The options it offered as a list ("- **Postmark** — great deliverability…", "- Amazon SES: cheapest…"), two or more. */
  options?: readonly string[];
}

/**
 * A sentence that only points at what was said before: "Let's go with that", "OK, that one", "그걸로 가자",
 * "좋아 그걸로" — an anaphor and at most a verb of choosing, nothing named.
 */
/** "OK,", "Sounds good!": agreeing words before what is chosen. */
const AGREEING_WORD = pattern([
  anyOf(
    'ok(?:ay)?',
    'yes',
    'yeah',
    'yep',
    'sure',
    'great',
    'good',
    'fine',
    'alright',
    'perfect',
    'sounds good',
    'agreed',
    'deal',
    'cool',
    'nice',
    'right',
  ),
  /[,.!\s]+/,
]);
const WE_WILL_LEAD = /(?:(?:let's|we'll|i'll|we will|i will|we're going to|i'm going to|we should|i'd)\s+)?/;
const CHOOSING_VERB = /(?:(?:go with|use|do|pick|take|stick with|choose|try|buy|get|keep)\s+)?/;
const ANAPHOR = /(?:that|this|it|those|these|them|that one|this one|the (?:first|second|third|last|former|latter)(?: one| option)?)/;
const POINTS_BACK_EN = pattern(
  ['^(?:', AGREEING_WORD, ')*', /(?:then[,\s]+)?/, WE_WILL_LEAD, CHOOSING_VERB, ANAPHOR, /(?:\s+(?:then|one|it is))?(?:\s+it is)?[.!]*$/],
  'i',
);

const KOREAN_AGREEING = /(?:(?:좋아|좋다|오|응|ㅇㅇ|그래|오케이|ㅇㅋ|콜|굿)[\s,.!~]*)*/;
const KOREAN_ANAPHOR = /(?:그걸로|그거로|이걸로|이거로|저걸로|그것으로|그렇게|그걸|그거|그게 좋겠다|그게 낫겠다)/;
const KOREAN_CHOOSING_VERB =
  /(?:가자|하자|할게|해|갈게|가|정했어|정할게|결정|합시다|갑시다|할래|가요|해요|살래|살게|쓰자|쓸게|쓸래|하자고)?/;
const POINTS_BACK_KO = pattern([
  /^/,
  KOREAN_AGREEING,
  /(?:[가-힣]{1,6}(?:은|는|이|가|도)\s)?/,
  KOREAN_ANAPHOR,
  /\s?/,
  KOREAN_CHOOSING_VERB,
  /[\s.!~]*$/,
]);

/** "Let's do it", "we'll try that": taking up together what the other proposed — a decision, not a promise ("I'll do it"). */
const TAKES_UP_EN = pattern(
  ['^(?:', AGREEING_WORD, ')*', /(?:then[,\s]+)?(?:let's|we'll|we will|we're going to)\s+/, CHOOSING_VERB, ANAPHOR],
  'i',
);

/**
 * "Then not now", "not yet", "maybe later": what the other proposed is put off — a decision about it, which names
 * nothing itself.
 */
const PUTS_OFF_EN = pattern(
  [
    '^(?:',
    AGREEING_WORD,
    ')*',
    /(?:then[,\s]+)?(?:not now|not yet|not today|maybe later|later then|let's wait|let's hold off)(?:[,\s]+then)?[.!]*$/,
  ],
  'i',
);

export function takesUpWhatWasSaid(sentence: string, koreanSentence: boolean): boolean {
  if (koreanSentence) return false;
  const s = sentence.trim();
  return (pointsAtWhatWasSaid(s, false) && TAKES_UP_EN.test(s)) || putsOffWhatWasSaid(s, false);
}

export function putsOffWhatWasSaid(sentence: string, koreanSentence: boolean): boolean {
  return !koreanSentence && PUTS_OFF_EN.test(sentence.trim());
}

/**
 * "Make it 7 days", "set it to noon", "change that to Friday": a new value for what the other speaker just
 * spoke of, said with an anaphor and a value only (a digit, or a short phrase of at most three words).
 */
const SETS_VALUE_EN = pattern(
  [
    '^(?:',
    AGREEING_WORD,
    ')*',
    /(?:then[,\s]+)?(?:let's\s+|please\s+)?/,
    /(?:make|set|change|bump|raise|lower|move|cut|turn|push)\s+(?:it|that|this|them)\s+/,
    /(?:(?:up |down )?to\s+|at\s+)?/,
    /(?=[^.!?]*\d)[^\s.!?,;]+(?:\s+[^\s.!?,;]+){0,2}[.!]*$/,
  ],
  'i',
);

export function setsWhatWasSaid(sentence: string, koreanSentence: boolean): boolean {
  return !koreanSentence && SETS_VALUE_EN.test(sentence.trim());
}

/** "Sounds good, ", "OK, ": agreeing before saying what was chosen. */
export const AGREEING_LEAD = pattern(['^(?:', AGREEING_WORD, ')+'], 'i');

export function pointsAtWhatWasSaid(sentence: string, koreanSentence: boolean): boolean {
  const s = sentence.trim();
  return koreanSentence ? POINTS_BACK_KO.test(s) : s.length <= 60 && POINTS_BACK_EN.test(s) && !/^(?:it|this|that)[.!]*$/i.test(s);
}

/** The speaker's label of a message (its name, or the role's), as observeMessage says it. */
export function speakerOf(names: SpeakerNames, message: Message): string {
  const role = message.role === 'user' ? 'user' : 'assistant';
  return names[role] ?? (isKorean(message.text ?? '') ? KOREAN_ROLE_LABEL[role] : role === 'user' ? 'User' : 'Assistant');
}

/** An observation said as its gist, for another sentence's topic: without its speaker and verb of saying, at most ten words. */
export function gistOf(text: string, speaker: string): string {
  let t = text;
  if (speaker && t.startsWith(speaker)) {
    t = t
      .slice(speaker.length)
      .replace(/^(?:은|는|이|가)?\s+/, '')
      .replace(/^(?:said|says|advised to|explained that|suggested to|suggests|thinks|asked)\s+/, '');
  }
  const words = t.replace(/\s*\^o-\w+$/, '').split(/\s+/);
  const cut = words.slice(0, 10).join(' ');
  return (words.length > 10 ? `${cut}…` : cut).replace(/[.!]+$/, '');
}

/** A list item: "- …", "* …", "• …", "1. …", "2) …". */
const LIST_ITEM = /^\s*(?:[-*•]|\d{1,2}[.)])\s+(.+)$/gmu;
/** Where an item's name ends: a dash, a colon, a parenthesis, a comma or a semicolon. */
const NAME_END = /\s+[—–-]\s|[—–:(,;]/u;
const MAX_OPTION_WORDS = 4;

/**
 * The options a message offers as a list, each item's leading name without its markup ("**Postmark** —
 * great deliverability" → "Postmark"); none unless two items or more have a short name.
 */
export function offeredOptions(text: string): string[] {
  const out: string[] = [];
  for (const [, item] of text.matchAll(LIST_ITEM)) {
    const head = item!
      .split(NAME_END)[0]!
      .replace(/[*_`]+/g, '')
      .trim();
    const words = head.split(/\s+/).filter(Boolean);
    if (words.length > 0 && words.length <= MAX_OPTION_WORDS && head.length <= 40 && /\p{L}/u.test(head)) out.push(head);
  }
  return out.length >= 2 ? [...new Set(out)] : [];
}

/** "Postmark.", "OK, postmark then", "let's go with the first… no: SES please": a name alone, maybe a verb of choosing. */
const NAMES_ONE = pattern(
  [/^(?:(?:let's|we'll|i'll)\s+)?/, CHOOSING_VERB, /(?:the\s+)?(.+?)/, /(?:\s+(?:then|it is|please|one))?[.!]*$/],
  'i',
);

/**
 * The option a sentence of the user's chooses from a list the other just offered — "postmark." after
 * "- **Postmark** — … - **Amazon SES** — …" — as the list names it; undefined for any other sentence (one that
 * says more than a name, or names none of the options).
 */
export function chosenOption(sentence: string, options: readonly string[]): string | undefined {
  const m = NAMES_ONE.exec(sentence.trim().replace(AGREEING_LEAD, ''));
  const name = m?.[1]?.toLowerCase().trim();
  if (!name || name.split(/\s+/).length > MAX_OPTION_WORDS) return undefined;
  // The whole name, or one distinctive word of it ("SES" for "Amazon SES").
  return (
    options.find((o) => o.toLowerCase() === name) ??
    (name.length >= 3 && !name.includes(' ') ? options.find((o) => o.toLowerCase().split(/\s+/).includes(name)) : undefined)
  );
}
