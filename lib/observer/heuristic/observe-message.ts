/**
 * One message's drafts: its sentences read into pieces (pieces.ts), the strong
 * ones (questions, decisions, preferences, deadlines) each an observation of
 * their own, the rest of the message one observation (draft.ts); then the
 * link to the question it answers (its topic or the quoted question,
 * reply-topic.ts) and a request to remember what was just said.
 */
import { oneLine } from '../../memory/observation-line.js';
import type { Message } from '../../core/types.js';
import { KOREAN_ROLE_LABEL } from './rules/ko.js';
import { cleanMessageText, hasHangul, isKorean, splitSentences } from './sentences.js';
import type { SpeakerNames } from './speakers.js';
import type { LocalDateTime } from './time.js';
import { finishSentence, finishText } from './finish-text.js';
import { readableStart } from './message-text.js';
import { draft, flushGroup, type Draft, type DraftScope } from './draft.js';
import { attribute, statedRule } from './attribution.js';
import { koreanTopicOf, REPLY_WINDOW_MS, topicOf, withTopic, type ReplyContext } from './reply-topic.js';
import type { SaidBefore } from './points-back.js';
import { readPieces, type Piece } from './pieces.js';
import type { HeuristicObserverOptions } from './observer.js';

/** What observeMessage needs of the options, read once per batch. */
export interface MessageSettings {
  options: HeuristicObserverOptions;
  maxSentences: number;
  maxChars: number;
  replyContext: boolean;
  select: boolean;
}

/** One message to observe, and what the conversation before it tells about it. */
export interface MessageTurn {
  message: Message;
  role: 'user' | 'assistant';
  /** The message's time (epoch ms, NaN if unreadable). */
  timeMs: number;
  local: LocalDateTime;
  names: SpeakerNames;
  /** The speakers' names as a list: ignored as content, stripped as vocatives. */
  knownNames: string[];
  settings: MessageSettings;
  /** The other speaker's pending question, which this message may answer. */
  replyTo: ReplyContext | undefined;
  /** Content words of the other speaker's latest message: what an echo repeats. */
  previousOther: ReadonlySet<string>;
  /** The batch's drafts, appended to. */
  drafts: Draft[];
  /** Set when a sentence was left out as a reaction, echo, remark or small-talk question. */
  said: { reacted: boolean };
  /** What the other speaker said last (within the reply window), for a sentence that only points at it. */
  earlierOther: SaidBefore | undefined;
}

/**
 * Append the drafts of one message to `turn.drafts` (marking the question it answers
 * as answered) and return the question it ends with, for the next message.
 */
export function observeMessage(turn: MessageTurn): ReplyContext | undefined {
  const { message, role, timeMs, local, names, knownNames, settings, replyTo, drafts } = turn;
  const options = settings.options;
  // Observations summarise; a pasted log or file beyond this adds nothing but time.
  const cleaned = cleanMessageText(readableStart(message.text ?? ''));
  if (!cleaned.text) return undefined;
  const sentences = splitSentences(cleaned.text);
  // Sentences are pieces of the text: without Hangul in it, none is Korean.
  const hangul = hasHangul(cleaned.text);
  const messageKorean = hangul && isKorean(cleaned.text);
  const speakerName = names[role];
  const listenerName = role === 'user' ? names.assistant : names.user;
  const speaker = speakerName ?? (messageKorean ? KOREAN_ROLE_LABEL[role] : role === 'user' ? 'User' : 'Assistant');
  // Resolve "you" only in a chat between two named people.
  const listener = speakerName && listenerName ? listenerName : undefined;

  const { pieces, lastQuestion, rememberRequested } = readPieces({
    message,
    role,
    timeMs,
    local,
    speaker,
    listener,
    listenerName,
    knownNames,
    settings,
    replyTo,
    previousOther: turn.previousOther,
    said: turn.said,
    earlierOther: turn.earlierOther,
    sentences,
    hangul,
    codeLanguages: cleaned.codeLanguages,
  });

  const first = drafts.length;
  const scope: DraftScope = {
    message,
    role,
    local,
    speaker,
    notTags: [speaker, ...knownNames],
    codeLanguages: cleaned.codeLanguages,
    maxSentences: settings.maxSentences,
    maxChars: settings.maxChars,
    select: settings.select,
    drafts,
  };
  const group: Piece[] = [];
  for (const p of pieces) {
    const a = p.analysis;
    // Questions, decisions, preferences and deadlines are observations of their own; with `select`,
    // the rest of a message is one memory (without, only its facts and events are).
    const strong = settings.select
      ? a.kind === 'question' || a.category === 'decision' || a.category === 'preference' || a.priority === 'high'
      : a.kind === 'question' || (a.category !== 'fact' && a.category !== 'event') || a.priority === 'high' || a.done;
    if (!strong) {
      group.push(p);
      continue;
    }
    flushGroup(group, scope);
    const sentence = a.kind === 'question' && p.korean ? p.body.trim().replace(/[?？]*$/, '?') : finishSentence(p.body);
    const said = a.category === 'preference' && scope.select && !p.korean ? (statedRule(sentence, speaker) ?? sentence) : sentence;
    const text = finishText(
      a.kind === 'question' ? sentence : attribute(said, speaker, p.korean, scope.select, a.category === 'decision'),
      scope.maxChars,
    );
    const made = draft(text, a.category, a.priority, a.done, a.working, a.kind === 'question', scope, sentence);
    p.draft = made;
    drafts.push(made);
  }
  flushGroup(group, scope);
  // A sentence that points at what the other speaker said cites that message too.
  for (const p of pieces) {
    if (!p.refersTo || !p.draft) continue;
    const covered = (p.draft.reactionEntryIds ??= []);
    for (const id of p.refersTo) if (id !== message.entryId && !covered.includes(id)) covered.push(id);
  }
  if (replyTo && drafts.length > first && timeMs - replyTo.timeMs <= REPLY_WINDOW_MS) {
    const reply = drafts[first]!;
    if (settings.replyContext) {
      // Asked for (replyContext): the question quoted with the first observation of the reply.
      const q = oneLine(replyTo.question);
      const context = isKorean(reply.text) ? ` (${replyTo.speaker}의 질문 "${q}"에 대한 답)` : ` (reply to ${replyTo.speaker}: "${q}")`;
      reply.text = finishText(reply.text + context, scope.maxChars + context.length);
    } else if (settings.select) {
      // An answer that does not name what it is about ("Three times a week.", "오후엔 디카페인만.") gets the question's
      // topic words, not the question: found by its subject ("coffee") as well as by what it says.
      const topic = isKorean(reply.text)
        ? koreanTopicOf(replyTo.question, reply.text, scope.notTags)
        : topicOf(replyTo.question, reply.text, scope.notTags);
      if (topic) {
        reply.topic = { of: topic, before: reply.text };
        reply.text = withTopic(reply.text, topic, scope.maxChars, isKorean(reply.text));
      }
    }
    // The answer means what it means in reply to the question: the question's entry is part of its provenance.
    if (replyTo.entryId !== message.entryId) reply.contextEntryId = replyTo.entryId;
    // The answer carries the content: the question is not written on its own.
    const asked = replyTo.piece?.draft;
    if (asked && options.mergeAnsweredQuestions !== false) asked.answered = true;
  }
  if (rememberRequested) raiseRemembered(drafts, first, role);
  return lastQuestion;
}

/**
 * "Please remember that" / "꼭 기억해 줘": what the speaker just said becomes high priority —
 * the observations of this message, or when it has none, of the speaker's previous message.
 */
function raiseRemembered(drafts: Draft[], first: number, role: 'user' | 'assistant'): void {
  let from = first;
  let to = drafts.length;
  if (from === to) {
    let i = first - 1;
    while (i >= 0 && drafts[i]!.role !== role) i--;
    if (i < 0) return;
    const message = drafts[i]!.message;
    to = i + 1;
    from = i;
    while (from > 0 && drafts[from - 1]!.message === message) from--;
  }
  for (let i = from; i < to; i++) {
    const d = drafts[i]!;
    if (!d.question && !d.done) d.priority = 'high';
  }
}
