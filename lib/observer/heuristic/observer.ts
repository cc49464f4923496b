/**
 * The offline heuristic Observer (docs/architecture.md, "A tick"): rules, no network. Turns one
 * session's new messages into prioritised, categorised observations that keep
 * the facts of both speakers — names, numbers, dates, places, technologies —
 * and skip greetings, thanks and chit-chat. English and Korean.
 *
 * Per message: prose is cleaned (code, tool lines, Markdown removed) and split
 * into sentences; each sentence is classified; sentences with a strong
 * category (preference, decision, task, state, question, or high priority)
 * become their own observation, the remaining informative sentences of the
 * message are kept together as one fact/event observation. First-person
 * sentences are restated for the speaker ("I prefer X" → "User prefers X"),
 * and relative dates get the absolute date appended ("tomorrow (2026-04-11)").
 *
 * Deterministic: the same batch and options give the same observations and
 * ids, so re-observing after a crash cannot duplicate anything.
 */
import { observationIdOfLine, oneLine } from '../../memory/observation-line.js';
import type { Message, Observation, Observer, ObserverBatch, ObserverResult, Priority, Provenance } from '../../core/types.js';
import { analyseEnglish, expandShorthand, isCommonWord, isQuestion, requestOf, restateEnglish, restateQuestion, stripAddress, type SentenceAnalysis } from './rules/en.js';
import { analyseKorean, isKoreanQuestion, KOREAN_ROLE_LABEL, koreanTopicWords, restateKorean } from './rules/ko.js';
import { cleanMessageText, hasHangul, isKorean, splitSentences } from './sentences.js';
import { SpeakerNameTracker, type SpeakerNames } from './speakers.js';
import { detectTags } from './tags.js';
import { condenseEnglish, condenseKorean, contentWords, dropReason, opensWithAcknowledgement, sentenceWorth, stripVocatives } from './selection.js';
import { annotateDates, findDateAnchors, localClock, localDateTime, type DateAnchor, type LocalDateTime } from './time.js';
import { asReported, ownWords, ReportedSpeech } from './reported.js';
import { controlTagsIn, isSuspicious, quoteControlTags, screenCurrentTask, screenLine } from '../../memory/suspicious.js';

export type { SpeakerNames } from './speakers.js';

export interface HeuristicObserverOptions {
  /** Names to attribute statements to instead of "User"/"Assistant"; may depend on the batch. */
  speakerNames?: SpeakerNames | ((batch: ObserverBatch) => SpeakerNames | undefined);
  /**
   * Learn the speakers' names from how they address each other ("Hey
   * Caroline!", "Thanks, Mel") when `speakerNames` does not give them.
   * A message's name comes only from the batch up to that message, so a
   * re-run from the same cursor restates it the same way; but batches are
   * independent, so a live session observed tick by tick may name a speaker
   * in one batch and not in the next. Default false: without a name a role is
   * "User" / "Assistant" (사용자 / 어시스턴트), the same in every batch.
   */
  inferSpeakerNames?: boolean;
  /** Keep questions the assistant asks (default false: they are prompts, not facts). */
  keepAssistantQuestions?: boolean;
  /** At most this many informative sentences are kept together per message, those that say most (default 2). */
  maxSentencesPerObservation?: number;
  /**
   * Quote the question a reply answers in the reply's first observation
   * (default false: the answer is the memory, the question's entry is in its
   * provenance): "Melanie painted that lake sunrise last year (2022) (reply to
   * Caroline: "Is this your own painting?")".
   */
  replyContext?: boolean;
  /**
   * A user's question that the next message answers is not an observation of
   * its own: the answer's observation quotes it and cites its entry (default
   * true). One observation per exchange instead of two that compete in search.
   */
  mergeAnsweredQuestions?: boolean;
  /** Observation texts are cut at about this many characters (default 600). */
  maxObservationChars?: number;
  /**
   * Keep only what is worth remembering, said short (default true): reactions, acknowledgements,
   * echoes of the other speaker, general remarks and small-talk questions are dropped, intensifiers
   * and announcing lead-ins removed (lib/observer/heuristic/selection.ts). False keeps every informative sentence.
   */
  select?: boolean;
}

const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2 };
const MAX_SENTENCE_CHARS = 400;
const MAX_MESSAGE_CHARS = 20_000;
/** An echo repeats what was just said: the start of the previous message is enough to compare with. */
const MAX_ECHO_CHARS = 4_000;

interface Piece {
  analysis: SentenceAnalysis;
  /** Restated sentence, with resolved dates. */
  body: string;
  korean: boolean;
  /** Words in the sentence as written, counted up to SHORT_LEAD_WORDS + 1 (only "is it short?" is asked). */
  words: number;
  /** The sentence as written (before vocatives and interjections were removed). */
  raw: string;
  /** How much it says (sentenceWorth): which sentences of a message an observation keeps. */
  worth: number;
  /** The observation made of this piece, once drafted. */
  draft?: Draft;
  /** It says "that" of what the other speaker just said ("Let's go with that", "그걸로 가자"): that message's entry. */
  refersTo?: string;
}

/** What the other speaker said last, for a sentence that only points at it ("Let's go with that"). */
interface SaidBefore {
  entryId: string;
  timeMs: number;
  /** Its first observation, without the attribution: "Litestream to replicate the SQLite file to B2". */
  gist: string;
}

/** The question the previous speaker ended with, for the reply that follows. */
interface ReplyContext {
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

/** A sentence that only describes an attachment: "[image: a photo of a dog]". */
const ATTACHMENT = /^\[(?:image|photo|picture|file|video|audio|attachment|sticker|shared)\b[^\]]*\]$/i;

/** A message within this time of a question is taken as its answer. */
const REPLY_WINDOW_MS = 2 * 60 * 60 * 1000;

/** One observation in the making. */
class Draft {
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

/** Create the offline heuristic Observer. */
export function createHeuristicObserver(options: HeuristicObserverOptions = {}): Observer {
  return {
    kind: 'heuristic',
    label: 'heuristic (offline)',
    observe: async (batch) => observeWithRules(batch, options),
  };
}

/** The Observer's work as a pure function of the batch. */
export function observeWithRules(batch: ObserverBatch, options: HeuristicObserverOptions = {}): ObserverResult {
  const given = (typeof options.speakerNames === 'function' ? options.speakerNames(batch) : options.speakerNames) ?? {};
  const tracker = options.inferSpeakerNames === true && (!given.user || !given.assistant) ? new SpeakerNameTracker() : undefined;
  const fallbackLocal = localDateTime(batch.now, batch.timeZone) ?? localDateTime('1970-01-01T00:00:00Z', 'UTC')!;
  const settings: MessageSettings = {
    options,
    maxSentences: options.maxSentencesPerObservation ?? 2,
    maxChars: options.maxObservationChars ?? 600,
    replyContext: options.replyContext === true,
    select: options.select !== false,
  };
  const drafts: Draft[] = [];
  const observations: Observation[] = [];
  const messages = new MessageLoop(given, tracker, fallbackLocal, localClock(batch.timeZone), settings, drafts);
  for (const message of batch.messages) messages.add(message);
  const list = new ObservationList(batch, observations);
  for (const d of drafts) list.add(d);
  return list.result();
}

/** The drafts of a batch's messages, message by message, and what one message passes to the next. */
class MessageLoop {
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
    this.pendingQuestion = observeMessage(message, message.role, ms, local, names, this.knownNames, this.settings, replyTo, previousOther, this.drafts, said, earlier);
    this.lastWords[message.role] = contentWords((message.text ?? '').slice(0, MAX_ECHO_CHARS), this.knownNames);
    const previous = this.previous;
    if (said.reacted && this.drafts.length === before && previous && previous.role !== message.role && ms - previous.timeMs <= REPLY_WINDOW_MS) {
      // A reply with nothing of its own ("Congrats! That must have been thrilling.") belongs to the
      // exchange about what it answers: one memory, citing both turns.
      (previous.draft.reactionEntryIds ??= []).push(message.entryId);
    }
    if (this.drafts.length > before) this.previous = { role: message.role, timeMs: ms, draft: this.drafts[this.drafts.length - 1]! };
    const merged = this.settings.select ? this.mergeFollowUp(message, replyTo, before) : undefined;
    if (merged) this.previous = { role: message.role, timeMs: ms, draft: this.drafts.length > before ? this.drafts[this.drafts.length - 1]! : merged };
    const made = this.drafts.slice(before);
    const statement = made.find((d) => !d.question);
    if (statement) this.saidBefore[message.role] = { entryId: message.entryId, timeMs: ms, gist: gistOf(statement.text, statement.message === message ? speakerOf(names, message) : '') };
    this.recent.push({ role: message.role, entryId: message.entryId, statements: made.filter((d) => !d.question).length, asked: this.pendingQuestion?.entryId === message.entryId, last: made.length > 0 ? made[made.length - 1] : merged });
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

const NO_CONTROL_TAGS: ReadonlySet<string> = new Set();

/** A batch's observations from its drafts, in order: one per id, and the current task. */
class ObservationList {
  private readonly byId = new Map<string, Observation>();
  private currentTask: string | undefined = undefined;
  private currentTaskStrength = -1;

  constructor(
    private readonly batch: ObserverBatch,
    private readonly observations: Observation[],
  ) {}

  add(d: Draft): void {
    if (d.answered) {
      this.considerTask(d);
      return;
    }
    const batch = this.batch;
    // The rules every Observer's output follows (memory/suspicious.ts): no marker tag, control tags only from the user's words.
    const screened = screenLine(d, d.role === 'user' ? controlTagsIn([d.message.text ?? '']) : NO_CONTROL_TAGS);
    if (screened !== d) Object.assign(d, { text: screened.text, tags: screened.tags, category: screened.category, priority: screened.priority, done: screened.done });
    // (A draft's text is finishText()'s, which is oneLine()'s.)
    const id = observationIdOfLine({ agent: batch.agent, session: batch.session, date: d.local.date, category: d.category, text: d.text });
    const existing = this.byId.get(id);
    if (existing) {
      const ids = existing.provenance!.entryIds;
      const more = entryIdsOf(d);
      for (const e of more) if (!ids.includes(e)) ids.push(e);
      return;
    }
    const provenance: Provenance = { source: d.message.source ?? batch.source, agent: batch.agent, session: batch.session, entryIds: entryIdsOf(d) };
    const obs: Observation = { id, date: d.local.date, time: d.local.time, priority: d.priority, done: d.done, category: d.category, text: d.text, tags: d.tags, agent: batch.agent, provenance };
    this.byId.set(id, obs);
    this.observations.push(obs);
    this.considerTask(d);
  }

  result(): ObserverResult {
    const observations = this.observations;
    const currentTask = screenCurrentTask(this.currentTask);
    return currentTask === undefined ? { observations } : { observations, currentTask };
  }

  private considerTask(d: Draft): void {
    if (d.role !== 'user' || d.done) return;
    // The latest work statement or task wins; a question only when there is nothing else.
    const strength = d.working || d.category === 'task' && !d.question ? 1 : d.category === 'task' ? 0 : -1;
    if (strength >= 0 && strength >= this.currentTaskStrength) {
      this.currentTask = d.text;
      this.currentTaskStrength = strength;
    }
  }
}

/** The message an observation comes from, then the question it quotes. */
function entryIdsOf(d: Draft): string[] {
  const ids = [d.message.entryId];
  if (d.contextEntryId) ids.push(d.contextEntryId);
  if (d.reactionEntryIds) for (const id of d.reactionEntryIds) if (!ids.includes(id)) ids.push(id);
  return ids;
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

/** What observeMessage needs of the options, read once per batch. */
interface MessageSettings {
  options: HeuristicObserverOptions;
  maxSentences: number;
  maxChars: number;
  replyContext: boolean;
  select: boolean;
}

/** The message being drafted: what every draft of it shares. */
interface DraftScope {
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

/**
 * Append the drafts of one message to `drafts` (marking the question it answers
 * as answered) and return the question it ends with, for the next message.
 */
function observeMessage(
  message: Message,
  role: 'user' | 'assistant',
  timeMs: number,
  local: LocalDateTime,
  names: SpeakerNames,
  knownNames: string[],
  settings: MessageSettings,
  replyTo: ReplyContext | undefined,
  previousOther: ReadonlySet<string>,
  drafts: Draft[],
  /** Set when a sentence was left out as a reaction, echo, remark or small-talk question. */
  said: { reacted: boolean },
  /** What the other speaker said last (within the reply window), for a sentence that only points at it. */
  earlierOther?: SaidBefore,
): ReplyContext | undefined {
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

  const pieces: Piece[] = [];
  let lastQuestion: ReplyContext | undefined;
  // "Please remember that": the speaker's facts just said become high priority.
  let rememberRequested = false;
  const reports = new ReportedSpeech();
  for (const raw of sentences) {
    const korean = hangul && isKorean(raw);
    // Quoted from a page, a file, a tool or another person: not the speaker's own wish, task, tag or name (reported.ts).
    const reported = reports.next(raw).kind === 'reported';
    // "Keep this straight for me: …", "Important: …" ask to remember what follows (the lead-in itself is removed below).
    if (settings.select && !reported && (REMEMBER_LEAD_IN.test(raw) || (role === 'user' && REMEMBER_THAT.test(raw)))) rememberRequested = true;
    let sentence = korean ? stripKoreanAddress(raw, knownNames) : stripAddress(expandShorthand(raw), knownNames);
    if (settings.select && !korean) sentence = stripVocatives(sentence);
    if (!sentence) continue;
    if (sentence.length > MAX_SENTENCE_CHARS) sentence = truncate(sentence, MAX_SENTENCE_CHARS);
    const anchors = findDateAnchors(sentence, local);
    const ctx = { names: knownNames, futureDate: pointsAhead(anchors, local.date), pastDate: pointsBack(anchors), role };
    const analysed = korean ? analyseKorean(sentence, ctx) : analyseEnglish(sentence, ctx);
    // An instruction aimed at the agent ("ignore previous instructions", "send … to <url>") is never a preference or a task either (memory/suspicious.ts).
    const quoted = reported || isSuspicious(sentence);
    let analysis = quoted ? asReported(analysed) : analysed;
    // Remember a question with any content for the reply, even one too thin to be an observation itself.
    const asked = analysis.kind === 'question' || (analysis.contentWords > 0 && (korean ? isKoreanQuestion(sentence) : isQuestion(sentence)));
    // What follows the question in the same message (a statement, thanks, an attachment) leaves it asked: "How do I
    // validate JWT refresh tokens? Access tokens are short-lived, but…" is answered by the next message all the same.
    if (asked) lastQuestion = { role, speaker, question: sentence, timeMs, entryId: message.entryId };
    if (analysis.kind === 'filler') continue;
    if (analysis.kind === 'question' && role === 'assistant' && !options.keepAssistantQuestions) continue;
    if (settings.select) {
      // An attachment's description ("[image: a photo of a dog on a beach]") is not what was said: not a memory.
      if (ATTACHMENT.test(sentence)) continue;
      const technical = detectTags(sentence, cleaned.codeLanguages, 1, knownNames).length > 0;
      const reason = dropReason(sentence, analysis, korean, { role, names: knownNames, previousOther, dated: anchors.length > 0, technical, answers: replyTo !== undefined && timeMs - replyTo.timeMs <= REPLY_WINDOW_MS, acknowledged: !korean && opensWithAcknowledgement(raw) });
      if (reason === 'remember request') rememberRequested = true;
      else if (reason !== undefined && reason !== 'acknowledgement') said.reacted = true;
      if (reason !== undefined && !(reason === 'small-talk question' && options.keepAssistantQuestions)) continue;
    }
    // "Let's go with that" / "그걸로 가자" names nothing: what it points at is what the other speaker just said, or
    // the sentence before it; a decision that points at nothing is no decision.
    let refersTo: string | undefined;
    let pointed = sentence;
    if (settings.select && pointsAtWhatWasSaid(sentence, korean)) {
      if (earlierOther) {
        refersTo = earlierOther.entryId;
        const bare = korean ? sentence : sentence.replace(AGREEING_LEAD, '');
        pointed = `${(bare || sentence).replace(/[.!~\s]+$/, '')} (${korean ? '주제' : 'on'}: ${earlierOther.gist})`;
      } else if (pieces.length === 0 && analysis.category === 'decision') {
        analysis = { ...analysis, category: 'fact', priority: 'low' };
      }
    }
    const dated = settings.select ? (korean ? condenseKorean : condenseEnglish)(annotateDates(pointed, anchors)) : annotateDates(sentence, anchors);
    let body: string;
    if (reported) {
      // As it was written: its "I" is whoever wrote the page or the e-mail, not the speaker.
      body = dated;
    } else if (analysis.kind === 'question') {
      body = korean ? `${speaker} 질문: ${restateKorean(dated, speaker)}` : questionBody(dated, speaker, listener, listenerName ?? (role === 'user' ? 'Assistant' : 'User'));
    } else {
      body = korean ? restateKorean(dated, speaker) : restateEnglish(dated, speaker, listener);
    }
    // #pin and #user_marked change what OC-Memory does with a line: only the user's own words give them.
    if (reported || role !== 'user') body = quoteControlTags(body);
    const worth = settings.select ? sentenceWorth(sentence, analysis, korean, { names: knownNames, dated: anchors.length > 0, technical: detectTags(sentence, cleaned.codeLanguages, 1, knownNames).length > 0 }) : 0;
    const piece: Piece = { analysis, body, korean, words: splitCount(sentence, SHORT_LEAD_WORDS + 1), raw, worth, ...(refersTo ? { refersTo } : {}) };
    pieces.push(piece);
    if (asked && lastQuestion) lastQuestion.piece = piece;
  }
  mergeShortLeads(pieces);

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
      : a.kind === 'question' || a.category !== 'fact' && a.category !== 'event' || a.priority === 'high' || a.done;
    if (!strong) {
      group.push(p);
      continue;
    }
    flushGroup(group, scope);
    const sentence = a.kind === 'question' && p.korean ? p.body.trim().replace(/[?？]*$/, '?') : finishSentence(p.body);
    const said = a.category === 'preference' && scope.select && !p.korean ? statedRule(sentence, speaker) ?? sentence : sentence;
    const text = finishText(a.kind === 'question' ? sentence : attribute(said, speaker, p.korean, scope.select, a.category === 'decision'), scope.maxChars);
    const made = draft(text, a.category, a.priority, a.done, a.working, a.kind === 'question', scope, sentence);
    p.draft = made;
    drafts.push(made);
  }
  flushGroup(group, scope);
  // A sentence that points at what the other speaker said cites that message too.
  for (const p of pieces) {
    if (!p.refersTo || !p.draft) continue;
    const covered = (p.draft.reactionEntryIds ??= []);
    if (p.refersTo !== message.entryId && !covered.includes(p.refersTo)) covered.push(p.refersTo);
  }
  if (replyTo && drafts.length > first && timeMs - replyTo.timeMs <= REPLY_WINDOW_MS) {
    const reply = drafts[first]!;
    if (settings.replyContext) {
      // Asked for (replyContext): the question quoted with the first observation of the reply.
      const q = oneLine(replyTo.question);
      const context = korean(reply.text) ? ` (${replyTo.speaker}의 질문 "${q}"에 대한 답)` : ` (reply to ${replyTo.speaker}: "${q}")`;
      reply.text = finishText(reply.text + context, scope.maxChars + context.length);
    } else if (settings.select) {
      // An answer that does not name what it is about ("Three times a week.", "오후엔 디카페인만.") gets the question's
      // topic words, not the question: found by its subject ("coffee") as well as by what it says.
      const topic = korean(reply.text) ? koreanTopicOf(replyTo.question, reply.text, scope.notTags) : topicOf(replyTo.question, reply.text, scope.notTags);
      if (topic) {
        reply.topic = { of: topic, before: reply.text };
        reply.text = withTopic(reply.text, topic, scope.maxChars, korean(reply.text));
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

/** Words a question's topic leaves out: "pet do you have" → "pet". */
const TOPIC_FUNCTION_WORDS = new Set(
  `do does did you your yours u ya have has had is are was were be been am i me my we our they them their he she it its this that these those the a an there any all some what which how why when where who whom whose can could would will should shall may might must`.split(/\s+/),
);

/** Words of a question that ask about nothing in particular. */
const VAGUE_TOPIC_WORD = new Set(
  `new lately recently happen happens happening happened doing going talked talk last since else anything something stuff thing things good fun stoked excited exciting want need help see find tell got like love favorite fave up what's how's how're how'd what'd whats hows with about for to from in on of at`.split(/\s+/),
);

/** At most this many words of a question name an answer's topic. */
const TOPIC_WORDS = 6;

/** The frame of a question: "How often do you all …", "Any …", "What kind of … did you …". */
const QUESTION_FRAME =
  /^(?:(?:so|and|but|hey|oh|well|also|btw)[,\s]+)?(?:what|how|why|when|where|which|who|whose|any|is|are|was|were|do|does|did|have|has|had|can|could|would|will|should)(?:\s+(?:often|much|many|long|far|kind of|kinda|sort of|type of|types of))?(?:\s+(?:do|does|did|is|are|was|were|have|has|had|can|could|would|will|should))?(?:\s+(?:you|your|u|ya|they|he|she|it|this|that|we|there))?(?:\s+(?:all|guys|two))?\s+/i;

/** "Three times a week." with the question's topic: "Three times a week (on: work out together)" ("(주제: …)" in Korean). */
function withTopic(text: string, topic: string, maxChars: number, koreanText = false): string {
  return finishText(`${text.replace(/[.!]$/, '')} (${koreanText ? '주제' : 'on'}: ${topic})`, maxChars + topic.length + 7);
}

/** The topic of a Korean question for an answer that shares none of its words ("커피는 여전히 하루 한 잔?" → "커피 하루 한 잔"). */
function koreanTopicOf(question: string, answer: string, names: readonly string[]): string | undefined {
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

/**
 * A sentence that only points at what was said before: "Let's go with that", "OK, that one", "그걸로 가자",
 * "좋아 그걸로" — an anaphor and at most a verb of choosing, nothing named.
 */
const POINTS_BACK_EN =
  /^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|great|good|fine|alright|perfect|sounds good|agreed|deal|cool|nice|right)[,.!\s]+)*(?:then[,\s]+)?(?:(?:let's|we'll|i'll|we will|i will|we're going to|i'm going to|we should|i'd)\s+)?(?:(?:go with|use|do|pick|take|stick with|choose|try|buy|get|keep)\s+)?(?:that|this|it|those|these|them|that one|this one|the (?:first|second|third|last|former|latter)(?: one| option)?)(?:\s+(?:then|one|it is))?(?:\s+it is)?[.!]*$/i;
const POINTS_BACK_KO = /^(?:(?:좋아|좋다|오|응|ㅇㅇ|그래|오케이|ㅇㅋ|콜|굿)[\s,.!~]*)*(?:[가-힣]{1,6}(?:은|는|이|가|도)\s)?(?:그걸로|그거로|이걸로|이거로|저걸로|그것으로|그렇게|그걸|그거|그게 좋겠다|그게 낫겠다)\s?(?:가자|하자|할게|해|갈게|가|정했어|정할게|결정|합시다|갑시다|할래|가요|해요|살래|살게|쓰자|쓸게|쓸래|하자고)?[\s.!~]*$/;

/** "Sounds good, ", "OK, ": agreeing before saying what was chosen. */
const AGREEING_LEAD = /^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|great|good|fine|alright|perfect|sounds good|agreed|deal|cool|nice|right)[,.!\s]+)+/i;

function pointsAtWhatWasSaid(sentence: string, koreanSentence: boolean): boolean {
  const s = sentence.trim();
  return koreanSentence ? POINTS_BACK_KO.test(s) : s.length <= 60 && POINTS_BACK_EN.test(s) && !/^(?:it|this|that)[.!]*$/i.test(s);
}

/** The speaker's label of a message (its name, or the role's), as observeMessage says it. */
function speakerOf(names: SpeakerNames, message: Message): string {
  const role = message.role === 'user' ? 'user' : 'assistant';
  return names[role] ?? (isKorean(message.text ?? '') ? KOREAN_ROLE_LABEL[role] : role === 'user' ? 'User' : 'Assistant');
}

/** An observation said as its gist, for another sentence's topic: without its speaker and verb of saying, at most ten words. */
function gistOf(text: string, speaker: string): string {
  let t = text;
  if (speaker && t.startsWith(speaker)) {
    t = t.slice(speaker.length).replace(/^(?:은|는|이|가)?\s+/, '').replace(/^(?:said|says|advised to|explained that|suggested to|suggests|thinks|asked)\s+/, '');
  }
  const words = t.replace(/\s*\^o-\w+$/, '').split(/\s+/);
  const cut = words.slice(0, 10).join(' ');
  return (words.length > 10 ? `${cut}…` : cut).replace(/[.!]+$/, '');
}

/** An offer to do something: its answer is a yes or no, and what follows is news of its own. */
const OFFER = /^(?:(?:so|and|ok(?:ay)?|great)[,\s]+)?(?:do you want me to|want me to|shall i|should i|would you like me to|can i|may i|let me know if you want me to)\b/i;

/**
 * What a question asks about, for an answer that does not say it ("How often do you all work out
 * together?" → "work out together" for "Three times a week."): undefined when the answer shares a
 * content word with the question.
 */
function topicOf(question: string, answer: string, names: readonly string[]): string | undefined {
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

/**
 * The part of a message that is read. A message over MAX_MESSAGE_CHARS is a paste (a log, a file, a
 * document): only what is written before it — its first paragraph — counts, cut at a sentence end
 * or between words, never inside a word ("We decided the launc." was a message cut at the cap).
 */
export function readableStart(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  let head = text.slice(0, MAX_MESSAGE_CHARS);
  const paragraph = head.search(/\n\s*\n/);
  if (paragraph > 0) return head.slice(0, paragraph);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '), head.lastIndexOf('\n'), head.lastIndexOf('。'));
  if (sentenceEnd > MAX_MESSAGE_CHARS / 2) return head.slice(0, sentenceEnd + 1);
  const space = head.search(/\s\S*$/);
  if (space > 0) head = head.slice(0, space);
  return `${head}…`;
}

/** Does an anchor point to a day after the message's (`futureDate` of the analysis)? */
function pointsAhead(anchors: readonly DateAnchor[], today: string): boolean {
  return anchors.some((a) => a.future && a.resolved !== today);
}

/** Does an anchor point to the past (`pastDate` of the analysis)? */
function pointsBack(anchors: readonly DateAnchor[]): boolean {
  return anchors.some((a) => !a.future);
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

const GROUP_RANK: Record<string, number> = { fact: 0, event: 1, state: 2, task: 3, preference: 4, decision: 5 };

/** One observation of the informative sentences gathered so far (at most maxSentences); empties `group`. */
function flushGroup(group: Piece[], scope: DraftScope): void {
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
function draft(text: string, category: string, priority: Priority, done: boolean, working: boolean, question: boolean, scope: DraftScope, said = text): Draft {
  const speaker = scope.speaker;
  // Tags from what was said, not from the attribution ("Speaker: ") added in front of it.
  const attributed = said.startsWith(`${speaker}: `);
  const tags = detectTags(attributed ? said.slice(speaker.length + 2) : said, scope.codeLanguages, 3, scope.notTags);
  return new Draft(category, priority, done, text, tags, scope.message, scope.local, working, question, scope.role);
}

function korean(text: string): boolean {
  return isKorean(text);
}

/** "How do I validate JWT refresh tokens?" → "User asked how to validate JWT refresh tokens." */
function questionBody(sentence: string, speaker: string, listener: string | undefined, listenerLabel: string): string {
  const request = requestOf(sentence);
  if (request) return `${speaker} asked ${listener ?? listenerLabel} to ${restateEnglish(request, speaker, listener)}`;
  const restated = restateQuestion(sentence);
  if (restated !== sentence.trim()) return `${speaker} asked ${restateEnglish(restated, speaker, listener)}`;
  return `${speaker} asked: ${restateEnglish(sentence.trim(), speaker, listener)}`;
}

/**
 * A very short statement that leans on the next sentence ("Fixed it! Migrations
 * run cleanly now.") is joined to it: one observation with the stronger category.
 */
/** A lead of at most this many words may join the next sentence. */
const SHORT_LEAD_WORDS = 3;

const TOPIC_CHANGE = /^(?:btw|by the way|also|anyway|anyways|oh|p\.?s\.?|another thing|unrelated|separately|그리고|근데|그런데|참|아 참)\b/iu;

function mergeShortLeads(pieces: Piece[]): void {
  for (let i = 0; i < pieces.length - 1; i++) {
    const lead = pieces[i]!;
    const next = pieces[i + 1]!;
    if (lead.words > SHORT_LEAD_WORDS || lead.analysis.kind !== 'statement' || next.analysis.kind !== 'statement') continue;
    // "Merged it. Btw, my name is Dana": the next sentence starts another topic.
    if (TOPIC_CHANGE.test(next.raw) || (next.analysis.priority === 'high' && next.analysis.category !== lead.analysis.category)) continue;
    const a = lead.analysis.category !== 'fact' || lead.analysis.done ? lead.analysis : next.analysis;
    const priority = PRIORITY_RANK[lead.analysis.priority] > PRIORITY_RANK[next.analysis.priority] ? lead.analysis.priority : next.analysis.priority;
    pieces.splice(i, 2, {
      analysis: { ...a, priority, working: lead.analysis.working || next.analysis.working, contentWords: lead.analysis.contentWords + next.analysis.contentWords },
      body: `${finishSentence(lead.body)} ${next.body}`,
      korean: lead.korean,
      words: lead.words + next.words,
      raw: `${lead.raw} ${next.raw}`,
      worth: lead.worth + next.worth,
    });
  }
}

const REMEMBER_LEAD_IN = /^(?:(?:oh|and|also|so|btw)[,\s]+)*(?:please\s+)?(?:keep (?:this|that|it) (?:straight|in mind)(?: for me)?|remember(?: this| that)?|important|note to self|for the record|don't forget)\s*[:,-]\s*\S/i;
/**
 * "Please remember that the orders table is partitioned by created_at": the user asks to keep the
 * clause that follows (docs/priorities.md). Only the user's: an assistant's "keep in mind that …"
 * is how an explanation goes on, not a request.
 */
const REMEMBER_THAT = /^(?:(?:oh|and|also|so|btw)[,\s]+)*(?:please\s+)?(?:remember|don't forget|do not forget|keep in mind|never forget) that\s+\S/i;

/**
 * Is the capital of the text's first word only the sentence's ("Fixed it", "Login is done") rather than
 * a name's ("Mira's eyes", "PostgreSQL 16")? A word written capitalised elsewhere in the text, with
 * capitals or digits inside, or followed by "'s" is taken as a name.
 */
function startsWithOrdinaryWord(text: string, firstWord: string): boolean {
  if (!/^[A-Z][a-z]*$/.test(firstWord) || firstWord === 'I') return false;
  if (isCommonWord(firstWord) || NUMBER_WORD.test(firstWord)) return true;
  if (text.startsWith(`${firstWord}'s`)) return false;
  return !new RegExp(`\\s${firstWord}\\b`).test(text.slice(firstWord.length));
}

const NUMBER_WORD = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|half|once|twice|every|each|most|some|several|both|either|neither)$/i;

/**
 * A sentence whose subject, the speaker, is left out: a past verb, "been", or a present participle after an adverb
 * ("Fixed it", "Been reading a lot", "Still working on the studio", "Going to continue my education").
 * Group 1: the adverbs, group 2: the verb.
 */
const IMPLICIT_SUBJECT =
  /^((?:(?:still|just|also|finally|recently|currently|already)\s+)*)(been|fixed|finished|merged|deployed|shipped|tried|tested|added|updated|removed|pushed|started|got|went|had|made|spent|moved|bought|visited|took|met|saw|wrote|(?:(?<=still\s|currently\s|just\s|also\s)|(?=going to\b))(?:working|trying|planning|thinking|hoping|looking|getting|going)|(?:researching|reading|learning|studying|building|writing|planning|preparing|looking into|working on)(?!\s+(?:is|was|are|were|can|has|makes?|helps?|feels?|seems?|gives?|takes?)\b))\b/i;

/** Common imperative verbs: a sentence starting with one is advice or a request, said as "X advised to …". */
const IMPERATIVE = /^(?:please\s+)?(?:use|keep|store|add|run|try|make|set|check|avoid|install|create|write|fix|update|remove|delete|move|rotate|call|send|take|give|put|wrap|read|open|close|start|stop|restart|consider|remember|note|switch|change|replace|enable|disable|turn|configure|mark|drop|skip|pin|upgrade|downgrade|review|test|build|deploy|merge|commit|push|pull|look|go|follow|ask|tell|let|don't|do not|never|always)\b/i;

/** A working rule said without a verb (the preference rules of rules/en.ts): "one thing — SQLAlchemy Core only", "No ORM models, no Session". */
const VERBLESS_RULE = /^(?:(?:one thing|also|and|oh|rule|note|important|fyi)\s*[^\w\s]{0,2}\s*)?(?:please\s+)?((?:(?!(?:it|that|this|there|he|she|they|we|i|you|is|was|not)\b)(?:[\w.+#/()'-]+\s+){0,4}[\w.+#/()'-]+\s+only|only\s+[\w.+#/-]+(?:\s+[\w.+#/()'-]+){0,5}|no\s+[\w.+#/()'-]+(?:\s+[\w.+#/()'-]+){0,3}\s*,\s*(?:and\s+)?no\s+.+?))(?:\s*,\s*please|\s+please)?([.!]*)$/i;

/** "SQLAlchemy Core only." said as what the speaker wants: "Nadia wants SQLAlchemy Core only." (undefined: not such a rule). */
function statedRule(sentence: string, speaker: string): string | undefined {
  const m = VERBLESS_RULE.exec(sentence.trim());
  if (!m) return undefined;
  const rule = m[1]!;
  const first = /^[A-Za-z']+/.exec(rule)?.[0] ?? '';
  return `${speaker} wants ${startsWithOrdinaryWord(rule, first) ? rule.charAt(0).toLowerCase() + rule.slice(1) : rule}${m[2] || '.'}`;
}

/** "Here is / Here's the X: value (— request)": group 1 the determiner, 2 "X: value", 3 the request after a dash. */
const HANDED_OVER = /^here(?:'s| is| are)\s+(the|my|our|a|an|some)\s+([^:]{1,80}:\s*\S.*?)(?:\s+[—–]\s+(.+))?$/i;

/** "(For the database,) we'll use …" / "we will go with …" / "we're going to …" (not "… not"): group 1 the scope words before it, group 2 what was decided. */
const WE_WILL = /^((?:for|in|on|with|at|about)\b[^,]{1,60},\s*)?we(?:'ll| will|'re going to| are going to)\s+(?!not\b|never\b)(.+)$/i;

/**
 * Say who said it, in the third person, without a "Speaker:" prefix: a text naming the speaker
 * stands as it is; advice becomes "Assistant advised to …"; anything else "User said …"
 * (Korean: "사용자는 …").
 */
function attribute(text: string, speaker: string, korean: boolean, select = true, decision = false): string {
  if (text.startsWith(speaker)) return text;
  if (select) {
    if (korean) {
      if (text.includes(speaker)) return text;
      // Advice "…감싸면 된다." is what the speaker advised, not something the speaker is: "…감싸면 된다고 조언했다."
      const said = text.replace(/면 된다[.!]?(?=\s|$)/, '면 된다고 조언했다.');
      return `${speaker}${hasFinalConsonant(speaker) ? '은' : '는'} ${said}`;
    }
    // "Fixed it." / "Been reading a lot." / "Still working on the studio.": the speaker is the subject left out.
    const implicit = IMPLICIT_SUBJECT.exec(text);
    if (implicit) {
      const verb = implicit[2]!.toLowerCase();
      const aux = verb === 'been' ? 'has ' : verb.split(' ')[0]!.endsWith('ing') ? 'is ' : '';
      return `${speaker} ${aux}${(implicit[1] ?? '').toLowerCase()}${verb}${text.slice(implicit[0].length)}`;
    }
    if (new RegExp(`\\b${speaker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)) return text.charAt(0).toUpperCase() + text.slice(1);
    // "A tabby cat…" → "said a tabby cat…"; a name or "I" stays as it is.
    const firstWord = /^[A-Za-z']+/.exec(text)?.[0] ?? '';
    const lowered = startsWithOrdinaryWord(text, firstWord) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
    if (/^let's\s+/i.test(text)) return `${speaker} ${decision ? 'decided' : 'suggested'} to ${text.replace(/^let's\s+/i, '')}`;
    // A decision said as "(For the database,) we'll use X": "For the database, User decided to use X".
    const weWill = decision ? WE_WILL.exec(text) : null;
    if (weWill) {
      const scopeWords = (weWill[1] ?? '').replace(/,\s*$/, '');
      const decided = `${speaker} decided to ${weWill[2]}`;
      return scopeWords ? `${scopeWords.charAt(0).toUpperCase()}${scopeWords.slice(1)}, ${decided}` : decided;
    }
    // "Because forEach ignores the promises…" answers a why.
    if (/^because\s+/i.test(text)) return `${speaker} explained that ${text.replace(/^because\s+/i, '')}`;
    if (IMPERATIVE.test(text)) {
      const advice = text.replace(/^please\s+/i, '');
      return `${speaker} advised to ${advice.charAt(0).toLowerCase()}${advice.slice(1)}`;
    }
    // "Here is the OpenAI key for the receipt parser: … — put it in .env please." hands something over (and asks).
    const handed = HANDED_OVER.exec(text);
    if (handed && (handed[3] === undefined || IMPERATIVE.test(handed[3]))) {
      const gave = `${speaker} gave ${handed[1]!.toLowerCase()} ${handed[2]!.replace(/[.!]+$/, '')}`;
      if (handed[3] === undefined) return `${gave}.`;
      const request = handed[3].replace(/^please\s+/i, '').replace(/[\s,]*please[.!]*$/i, '').replace(/[.!]+$/, '');
      return `${gave}, and asked to ${request.charAt(0).toLowerCase()}${request.slice(1)}.`;
    }
    return `${speaker} said ${lowered}`;
  }
  // "User: we're on GitHub" reads better as "User: We're on GitHub".
  return `${speaker}: ${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Does the last Hangul syllable have a final consonant (받침)? */
function hasFinalConsonant(word: string): boolean {
  const last = word.charCodeAt(word.length - 1);
  return last >= 0xac00 && last <= 0xd7a3 && (last - 0xac00) % 28 !== 0;
}

/** End a sentence with a period (questions keep nothing; "!" becomes "."). */
function finishSentence(s: string): string {
  let t = s.trim();
  // The replacements only apply when the sentence ends in one of these characters.
  if (endsOpen(t)) t = t.replace(/\s*[!]+$/, '.').replace(/\s*\?+$/, '').replace(/[,;:\s-]+$/, '');
  if (!endsClosed(t, false) && !endsWithPictograph(t)) t += '.';
  return t;
}

// (End tests look at the last character only: a `$`-anchored regex is tried from every position.)

/** Does `t` end with one of `!?,;:-` or white space? */
function endsOpen(t: string): boolean {
  return /[!?,;:\-\s]/.test(t.slice(-1));
}

/** Does `t` end with one of `.。…)"'\]` (or `?` when `question`)? */
function endsClosed(t: string, question: boolean): boolean {
  return (question ? /[.。…)"'\]?]/ : /[.。…)"'\]]/).test(t.slice(-1));
}

/** Does `t` end with an emoji-like pictograph? */
function endsWithPictograph(t: string): boolean {
  return /\p{Extended_Pictographic}$/u.test(t.slice(-2));
}

/** "!!" or "??" */
const REPEATED_MARK = /!!|\?\?/;

/** The text as an observation: one line as oneLine() gives it (what follows oneLine adds no white space, truncate trims it). */
function finishText(text: string, maxChars: number): string {
  let t = oneLine(text);
  if (REPEATED_MARK.test(t)) t = t.replace(/([!?])\1+/g, '$1');
  if (/[.!?][.!?]$/.test(t.slice(-2))) t = t.replace(/([.!?])[.!?]+$/, '$1');
  if (!endsClosed(t, true) && !endsWithPictograph(t)) t += '.';
  return t.length > maxChars ? truncate(t, maxChars) : t;
}

/** How many pieces `text.split(/\s+/)` makes, at most `cap`. */
function splitCount(text: string, cap: number): number {
  return Math.min(text.split(/\s+/).length, cap);
}

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:\s]+$/, '')}…`;
}

/** Korean vocative pattern of a name, compiled once. */
const koreanVocatives = new Map<string, RegExp>();

function koreanVocative(name: string): RegExp {
  let re = koreanVocatives.get(name);
  if (!re) {
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`^${esc}(?:님|씨|아|야)?\\s*[,!.]\\s*`);
    if (koreanVocatives.size >= 256) koreanVocatives.clear();
    koreanVocatives.set(name, re);
  }
  return re;
}

/** Korean vocatives: "민수님, …", "민수야 …". */
function stripKoreanAddress(sentence: string, names: string[]): string {
  let s = sentence.trim();
  for (const name of names) {
    if (name.length < 2) continue;
    s = s.replace(koreanVocative(name), '');
  }
  return s
    .replace(/^(?:네|넵|응|아|오|와|음|그래|좋아요|좋아|알겠어요|알겠습니다)\s*[,!.~]+\s*/, '')
    .replace(/^(?:그리고|그런데|근데|그래서|참|아 참)\s+/, '')
    .trim();
}
