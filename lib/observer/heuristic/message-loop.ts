/**
 * The drafts of a batch's messages, message by message, and what one message
 * passes to the next: the question it ends with (for the answer), each
 * speaker's last words (for echoes) and last statement (for "let's go with
 * that"), the latest observation (for a reply that only reacts), and the two
 * messages before (for a follow-up answer that joins what it follows up).
 */
import type { Message } from '../../core/types.js';
import type { SpeakerNameTracker, SpeakerNames } from './speakers.js';
import { contentWords } from './selection.js';
import type { LocalDateTime } from './time.js';
import { ownWords } from './reported.js';
import { finishText } from './finish-text.js';
import { PRIORITY_RANK, GROUP_RANK, type Draft, entryIdsOf } from './draft.js';
import { REPLY_WINDOW_MS, type ReplyContext, withTopic } from './reply-topic.js';
import { type SaidBefore, speakerOf, gistOf, offeredOptions } from './points-back.js';
import { TOPIC_CHANGE } from './pieces.js';
import { type MessageSettings, observeMessage } from './observe-message.js';

/** An echo repeats what was just said: the start of the previous message is enough to compare with. */
const MAX_ECHO_CHARS = 4_000;

/** The drafts of a batch's messages, message by message, and what one message passes to the next. */
export class MessageLoop {
  private pendingQuestion: ReplyContext | undefined = undefined;
  // The names' list is rebuilt only when the names change (given names: once per batch).
  private namesOfList: SpeakerNames | undefined = undefined;
  private knownNames: string[] = [];
  /** Content words of each speaker's latest message: what an echo repeats. */
  private lastWords: Record<'user' | 'assistant', ReadonlySet<string>> = { user: new Set(), assistant: new Set() };
  /** The conversation's latest observation, for a reply that only reacts to it. */
  private previous: { role: 'user' | 'assistant'; timeMs: number; draft: Draft } | undefined = undefined;
  /** The two messages before this one, oldest first: what a follow-up answer is merged into. */
  private recent: MessageRecord[] = [];
  /** Each speaker's latest message with an observation, for "that" in the other's reply. */
  private saidBefore: Partial<Record<'user' | 'assistant', SaidBefore>> = {};
  /** What the current speaker's turn answers ("python 3.13? — "), kept across its messages until the other speaks. */
  private answering: { role: 'user' | 'assistant'; timeMs: number; question: string; entryId: string } | undefined = undefined;

  constructor(
    private readonly given: SpeakerNames,
    private readonly tracker: SpeakerNameTracker | undefined,
    private readonly fallbackLocal: LocalDateTime,
    private readonly clock: (ms: number) => LocalDateTime,
    private readonly settings: MessageSettings,
    private readonly drafts: Draft[],
  ) {}

  add(message: Message): void {
    if (message.role !== 'user' && message.role !== 'assistant') return;
    const ms = Date.parse(message.time);
    const local = Number.isFinite(ms) ? this.clock(ms) : this.fallbackLocal;
    // A name is learned from the speaker's own words only: "Thanks, Mallory." signing a quoted e-mail names nobody here.
    this.tracker?.add({ role: message.role, text: ownWords(message.text ?? '') });
    const names: SpeakerNames = this.tracker ? mergeNames(this.tracker.names(), this.given) : this.given;
    if (names !== this.namesOfList) {
      this.namesOfList = names;
      this.knownNames = [];
      if (names.user) this.knownNames.push(names.user);
      if (names.assistant) this.knownNames.push(names.assistant);
    }
    const pending = this.pendingQuestion;
    const replyTo = pending && pending.role !== message.role ? pending : undefined;
    const previousOther = this.lastWords[message.role === 'user' ? 'assistant' : 'user'];
    const before = this.drafts.length;
    const said = { reacted: false };
    const other = this.saidBefore[message.role === 'user' ? 'assistant' : 'user'];
    const earlier = other && ms - other.timeMs <= REPLY_WINDOW_MS ? other : undefined;
    this.pendingQuestion = observeMessage({
      message,
      role: message.role,
      timeMs: ms,
      local,
      names,
      knownNames: this.knownNames,
      settings: this.settings,
      replyTo,
      previousOther,
      drafts: this.drafts,
      said,
      earlierOther: earlier,
    });
    this.lastWords[message.role] = contentWords((message.text ?? '').slice(0, MAX_ECHO_CHARS), this.knownNames);
    const previous = this.previous;
    if (
      said.reacted &&
      this.drafts.length === before &&
      previous &&
      previous.role !== message.role &&
      ms - previous.timeMs <= REPLY_WINDOW_MS
    ) {
      // A reply with nothing of its own ("Congrats! That must have been thrilling.") belongs to the
      // exchange about what it answers: one memory, citing both turns.
      (previous.draft.reactionEntryIds ??= []).push(message.entryId);
    }
    if (this.drafts.length > before) this.previous = { role: message.role, timeMs: ms, draft: this.drafts[this.drafts.length - 1]! };
    const merged = this.settings.select ? this.mergeFollowUp(message, replyTo, before) : undefined;
    if (merged)
      this.previous = {
        role: message.role,
        timeMs: ms,
        draft: this.drafts.length > before ? this.drafts[this.drafts.length - 1]! : merged,
      };
    const made = this.drafts.slice(before);
    const statement = made.find((d) => !d.question);
    // An answer's gist leads with what it answers: "let's do it" after "what about X?" and its answer decides X. A
    // turn of several messages (prose, a tool call, prose) answers it in each: "Everything passes on 3.13", after the
    // tool's output, still answers "python 3.13?".
    const answered = replyTo && ms - replyTo.timeMs <= REPLY_WINDOW_MS ? replyTo : undefined;
    if (answered)
      this.answering = {
        role: message.role,
        timeMs: ms,
        question: `${answered.question.replace(/[?\s]+$/, '')} — `,
        entryId: answered.entryId,
      };
    else if (this.answering?.role !== message.role || ms - this.answering.timeMs > REPLY_WINDOW_MS) this.answering = undefined;
    if (statement) {
      this.saidBefore[message.role] = {
        entryId: message.entryId,
        timeMs: ms,
        gist: (this.answering?.question ?? '') + gistOf(statement.text, statement.message === message ? speakerOf(names, message) : ''),
        ...(this.answering ? { askedEntryId: this.answering.entryId } : {}),
      };
      // Only the agent's list is chosen from (pieces.ts: the user's "postmark."): a user's list is not read for options.
      const options = message.role === 'user' ? [] : offeredOptions(message.text ?? '');
      if (options.length > 0) this.saidBefore[message.role]!.options = options;
    }
    this.recent.push({
      role: message.role,
      entryId: message.entryId,
      statements: made.filter((d) => !d.question).length,
      asked: this.pendingQuestion?.entryId === message.entryId,
      last: made.length > 0 ? made[made.length - 1] : merged,
    });
    if (this.recent.length > 2) this.recent.shift();
  }

  /**
   * A follow-up: A says something, B only reacts and asks about it ("Wow! What made you pick it?"), A answers.
   * A's answer is the same memory as what A said: its first observation joins A's (one line, citing all three
   * turns) instead of standing alone with the question's topic. Returns the observation it joined.
   */
  private mergeFollowUp(message: Message, replyTo: ReplyContext | undefined, before: number): Draft | undefined {
    const [earlier, asker] = this.recent;
    if (!earlier || !asker || this.drafts.length === before) return undefined;
    if (asker.role === message.role || asker.statements > 0 || earlier.role !== message.role) return undefined;
    // B asked about it, or said nothing to keep ("Wow, that's great!") and A goes on about the same thing.
    const followsUp = replyTo ? asker.entryId === replyTo.entryId : !asker.asked && !TOPIC_CHANGE.test((message.text ?? '').trimStart());
    if (!followsUp) return undefined;
    const into = earlier.last;
    const answer = this.drafts[before]!;
    if (!into || !canJoin(into, answer, this.settings.maxChars)) return undefined;
    // The topic of the question the first answered stays at the end of the whole.
    const joined = finishText(`${into.topic?.before ?? into.text} ${joinedAnswer(into, answer)}`, this.settings.maxChars);
    into.text = into.topic ? withTopic(joined, into.topic.of, this.settings.maxChars) : joined;
    if (into.topic) into.topic.before = joined;
    const covered = (into.reactionEntryIds ??= []);
    for (const id of entryIdsOf(answer)) if (id !== into.message.entryId && !covered.includes(id)) covered.push(id);
    if (PRIORITY_RANK[answer.priority] > PRIORITY_RANK[into.priority]) into.priority = answer.priority;
    if (GROUP_RANK[answer.category]! > GROUP_RANK[into.category]!) {
      into.category = answer.category;
      into.done = answer.done;
    }
    for (const tag of answer.tags) if (into.tags.length < 3 && !into.tags.includes(tag)) into.tags.push(tag);
    this.drafts.splice(before, 1);
    return into;
  }
}

/** What a follow-up answer needs to know of the messages before it. */
interface MessageRecord {
  role: 'user' | 'assistant';
  entryId: string;
  /** Observations of the message that are not questions. */
  statements: number;
  /** It ended with a question (what the next message answers). */
  asked: boolean;
  /** The message's last observation (or the one its first joined). */
  last: Draft | undefined;
}

/** Kinds of observation that a follow-up answer joins: facts, events, states and tasks — not a preference, decision or question, which stand alone. */
const JOINABLE = new Set(['fact', 'event', 'state', 'task']);

/** Can `answer` join `into` (same day, both plain memories, together within the length of one observation)? */
function canJoin(into: Draft, answer: Draft, maxChars: number): boolean {
  if (into.question || answer.question || !JOINABLE.has(into.category) || !JOINABLE.has(answer.category)) return false;
  // A 🔴 fact (who someone is, a deadline, something asked to be remembered) is a line of its own, and is not made longer.
  if (into.priority === 'high' || answer.priority === 'high') return false;
  if (into.local.date !== answer.local.date) return false;
  return into.text.length + joinedAnswer(into, answer).length + 1 <= maxChars;
}

/** The answer as it joins: without the question's topic when what it joins already names it ("Grey-green (on: colour Mira's eyes)" keeps it). */
function joinedAnswer(into: Draft, answer: Draft): string {
  if (!answer.topic) return answer.text;
  const said = contentWords(into.text);
  for (const w of contentWords(answer.topic.of)) if (said.has(w)) return answer.topic.before;
  return answer.text;
}

/** Given names win over learned ones. */
function mergeNames(learned: SpeakerNames, given: SpeakerNames): SpeakerNames {
  const out: SpeakerNames = {};
  const user = given.user ?? learned.user;
  const assistant = given.assistant ?? learned.assistant;
  if (user !== undefined) out.user = user;
  if (assistant !== undefined) out.assistant = assistant;
  return out;
}
