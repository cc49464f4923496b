/**
 * An answer and the question it answers: the question that stays pending for
 * the next message (ReplyContext), and the question's topic added to an answer
 * that does not name it ("Three times a week (on: work out together)").
 */
import { koreanTopicWords } from './rules/ko.js';
import { contentWords } from './selection.js';
import { finishText } from './finish-text.js';
import type { Piece } from './pieces.js';
import { anyOf, pattern } from '../../core/pattern.js';

/** A message within this time of a question is taken as its answer. */
export const REPLY_WINDOW_MS = 2 * 60 * 60 * 1000;

/** The question the previous speaker ended with, for the reply that follows. */
export interface ReplyContext {
  role: 'user' | 'assistant';
  speaker: string;
  question: string;
  /** Time of the question (epoch ms, NaN if unreadable): a message much later is not its answer. */
  timeMs: number;
  /** Entry id of the message that asked it (provenance of the reply's observation too). */
  entryId: string;
  /** The question's own observation, if it became one. */
  piece?: Piece;
}

/** Words a question's topic leaves out: "pet do you have" → "pet". */
const TOPIC_FUNCTION_WORDS = new Set(
  `do does did you your yours u ya have has had is are was were be been am i me my we our they them their he she it its this that these those the a an there any all some what which how why when where who whom whose can could would will should shall may might must`.split(
    /\s+/,
  ),
);

/** Words of a question that ask about nothing in particular. */
const VAGUE_TOPIC_WORD = new Set(
  `new lately recently happen happens happening happened doing going talked talk last since else anything something stuff thing things good fun stoked excited exciting want need help see find tell got like love favorite fave up what's how's how're how'd what'd whats hows with about for to from in on of at`.split(
    /\s+/,
  ),
);

/** At most this many words of a question name an answer's topic. */
const TOPIC_WORDS = 6;

/** The frame of a question: "How often do you all …", "Any …", "What kind of … did you …". */
const QUESTION_WORD = anyOf(
  ...['what', 'how', 'why', 'when', 'where', 'which', 'who', 'whose', 'any'],
  ...['is', 'are', 'was', 'were', 'do', 'does', 'did', 'have', 'has', 'had', 'can', 'could', 'would', 'will', 'should'],
);
const QUESTION_FRAME = pattern(
  [
    /^(?:(?:so|and|but|hey|oh|well|also|btw)[,\s]+)?/,
    QUESTION_WORD,
    /(?:\s+(?:often|much|many|long|far|kind of|kinda|sort of|type of|types of))?/,
    /(?:\s+(?:do|does|did|is|are|was|were|have|has|had|can|could|would|will|should))?/,
    /(?:\s+(?:you|your|u|ya|they|he|she|it|this|that|we|there))?(?:\s+(?:all|guys|two))?\s+/,
  ],
  'i',
);

/** "Three times a week." with the question's topic: "Three times a week (on: work out together)" ("(주제: …)" in Korean). */
export function withTopic(text: string, topic: string, maxChars: number, koreanText = false): string {
  return finishText(`${text.replace(/[.!]$/, '')} (${koreanText ? '주제' : 'on'}: ${topic})`, maxChars + topic.length + 7);
}

/** The topic of a Korean question for an answer that shares none of its words ("커피는 여전히 하루 한 잔?" → "커피 하루 한 잔"). */
export function koreanTopicOf(question: string, answer: string, names: readonly string[]): string | undefined {
  const asked = contentWords(question, names);
  if (asked.size === 0) return undefined;
  const answered = contentWords(answer, names);
  for (const w of asked) if (answered.has(w)) return undefined;
  // Latin words glued to Korean ("async/await에서") are words of their own here.
  const latin = (t: string) => new Set((t.toLowerCase().match(/[a-z][a-z0-9+#.-]+/g) ?? []).filter((w) => w.length > 2));
  const answeredLatin = latin(answer);
  for (const w of latin(question)) if (answeredLatin.has(w)) return undefined;
  return koreanTopicWords(question, [...names]) || undefined;
}

/** Words that make even a word or two a question of its own ("why?", "언제?", "really?"). */
const ASKING_WORD =
  /\b(?:what|how|why|when|where|which|who|whose|whom|really|sure|seriously)\b|어떻게|왜|뭐|무엇|무슨|언제|어디|누구|어느|몇|어떤|얼마|진짜|정말/iu;

/**
 * "조금?", "maybe?", "a bit?" in reply to a question: a word or two said with a rising voice are the answer,
 * hedged, not a question asked — what the other says next answers nothing, and takes no topic from it.
 */
export function isHedgedAnswer(sentence: string): boolean {
  const s = sentence.trim();
  if (!/[?？]\s*$/u.test(s) || ASKING_WORD.test(s)) return false;
  const words = s
    .replace(/[?？.!~\s]+$/u, '')
    .split(/\s+/)
    .filter(Boolean);
  return words.length > 0 && words.length <= 2;
}

/** An offer to do something: its answer is a yes or no, and what follows is news of its own. */
const OFFER =
  /^(?:(?:so|and|ok(?:ay)?|great)[,\s]+)?(?:do you want me to|want me to|shall i|should i|would you like me to|can i|may i|let me know if you want me to)\b/i;

/**
 * What a question asks about, for an answer that does not say it ("How often do you all work out
 * together?" → "work out together" for "Three times a week."): undefined when the answer shares a
 * content word with the question.
 */
export function topicOf(question: string, answer: string, names: readonly string[]): string | undefined {
  // "Do you want me to draft the panel list?" — "Yes please. The report is due Wednesday.": an offer taken, not a topic.
  if (OFFER.test(question)) return undefined;
  const asked = contentWords(question, names);
  const answered = contentWords(answer, names);
  for (const w of asked) if (answered.has(w)) return undefined;
  if (asked.size === 0) return undefined;
  const words = question
    .replace(/[?!.]+\s*$/, '')
    .replace(QUESTION_FRAME, '')
    .split(/\s+/)
    .filter((w) => w && !TOPIC_FUNCTION_WORDS.has(w.toLowerCase().replace(/[^a-z']/g, '')));
  const topic = words.slice(0, TOPIC_WORDS).join(' ');
  // "Anything new", "What's up with lately", "How're doing": a topic that names nothing is not one.
  return words.some((w) => !VAGUE_TOPIC_WORD.has(w.toLowerCase().replace(/[^a-z']/g, ''))) ? topic : undefined;
}
