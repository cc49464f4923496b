/**
 * A message's sentences read into pieces (observe-message.ts drafts them): each
 * sentence cleaned of its address and vocatives, its dates resolved, analysed
 * by the rules (rules/cascade.ts), left out when selection says it is not worth
 * remembering (selection.ts), and restated for its speaker. A very short lead
 * joins the sentence after it.
 */
import type { Message } from '../../core/types.js';
import { analyseEnglish, expandShorthand, isQuestion, restateEnglish, stripAddress, type SentenceAnalysis } from './rules/en.js';
import { analyseKorean, isKoreanQuestion, restateKorean } from './rules/ko.js';
import { isKorean } from './sentences.js';
import { detectTags } from './tags.js';
import {
  condenseEnglish,
  condenseKorean,
  dropReason,
  opensWithAcknowledgement,
  sentenceWorth,
  stripVocatives,
  withoutKoreanChatMarks,
} from './selection.js';
import { annotateDates, findDateAnchors, type DateAnchor, type LocalDateTime } from './time.js';
import { asReported, ReportedSpeech } from './reported.js';
import { isSuspicious, quoteControlTags } from '../../memory/suspicious.js';
import { finishSentence, splitCount, truncate } from './finish-text.js';
import { stripKoreanAddress } from './korean-address.js';
import { PRIORITY_RANK, type Draft } from './draft.js';
import { questionBody } from './attribution.js';
import { isHedgedAnswer, REPLY_WINDOW_MS, type ReplyContext } from './reply-topic.js';
import {
  AGREEING_LEAD,
  chosenOption,
  pointsAtWhatWasSaid,
  putsOffWhatWasSaid,
  setsWhatWasSaid,
  takesUpWhatWasSaid,
  type SaidBefore,
} from './points-back.js';
import type { MessageSettings } from './observe-message.js';
import { anyOf, pattern } from '../../core/pattern.js';

/** One sentence (or a short lead and the sentence it leans on) as it becomes part of an observation. */
export interface Piece {
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
  /**
   * It says "that" of what the other speaker just said ("Let's go with that", "그걸로 가자"): that message's entry,
   * and the entry of the question that message answered when its words are the topic too.
   */
  refersTo?: readonly string[];
  /** The option it chose from the other's list ("postmark." → "Postmark"): a decision that names what it decided. */
  chosen?: string;
}

/** Who speaks and to whom, and what is known of the conversation, for reading one message's sentences. */
export interface PieceReading {
  message: Message;
  role: 'user' | 'assistant';
  timeMs: number;
  local: LocalDateTime;
  /** The speaker's label ("User", "사용자", or a name). */
  speaker: string;
  /** Who "you" is, only in a chat between two named people. */
  listener: string | undefined;
  /** The other party's name, if known. */
  listenerName: string | undefined;
  knownNames: string[];
  settings: MessageSettings;
  replyTo: ReplyContext | undefined;
  previousOther: ReadonlySet<string>;
  /** Set when a sentence was left out as a reaction, echo, remark or small-talk question. */
  said: { reacted: boolean };
  earlierOther: SaidBefore | undefined;
  /** The message text's sentences, whether it has Hangul at all, and its code blocks' languages. */
  sentences: readonly string[];
  hangul: boolean;
  codeLanguages: string[];
}

/** What reading a message gives: its pieces, the question it ends with, and whether the speaker asked to remember. */
export interface ReadMessage {
  pieces: Piece[];
  lastQuestion: ReplyContext | undefined;
  rememberRequested: boolean;
}

/** The pieces of one message, in order (short leads joined to what follows). */
export function readPieces(reading: PieceReading): ReadMessage {
  const {
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
    previousOther,
    said,
    earlierOther,
    sentences,
    hangul,
    codeLanguages,
  } = reading;
  const options = settings.options;
  // The message follows a question of the other speaker's closely enough to answer it.
  const answersQuestion = replyTo !== undefined && timeMs - replyTo.timeMs <= REPLY_WINDOW_MS;
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
    if (settings.select && !reported && (REMEMBER_LEAD_IN.test(raw) || (role === 'user' && REMEMBER_THAT.test(raw))))
      rememberRequested = true;
    let sentence = korean ? withoutKoreanChatMarks(stripKoreanAddress(raw, knownNames)) : stripAddress(expandShorthand(raw), knownNames);
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
    // "조금?" answering "리더보드 느려진 건 없어?" is the answer, hedged: no question for the next message to answer.
    const hedged = pieces.length === 0 && answersQuestion && isHedgedAnswer(sentence);
    const asked =
      !hedged &&
      (analysis.kind === 'question' || (analysis.contentWords > 0 && (korean ? isKoreanQuestion(sentence) : isQuestion(sentence))));
    // What follows the question in the same message (a statement, thanks, an attachment) leaves it asked: "How do I
    // validate JWT refresh tokens? Access tokens are short-lived, but…" is answered by the next message all the same.
    if (asked) lastQuestion = { role, speaker, question: sentence, timeMs, entryId: message.entryId };
    // "Then not now" names nothing, yet decides about what the other just proposed (below).
    const putsOff = settings.select && role === 'user' && earlierOther !== undefined && !quoted && putsOffWhatWasSaid(sentence, korean);
    if (analysis.kind === 'filler' && !putsOff) continue;
    if (analysis.kind === 'question' && role === 'assistant' && !options.keepAssistantQuestions) continue;
    // Technical (names a technology or a code language's word): asked once, for selection and for worth.
    let technical = false;
    // The user's "let's do it" after the other's proposal names nothing, and decides what was proposed: kept, a decision.
    // "postmark." after the other's list of options chooses one of them: "let's go with Postmark", a decision on what was offered.
    const chosen =
      settings.select && role === 'user' && earlierOther?.options && !quoted && !korean
        ? chosenOption(sentence, earlierOther.options)
        : undefined;
    if (chosen) {
      sentence = `let's go with ${chosen}`;
      analysis = analyseEnglish(sentence, ctx);
    }
    const takesUp =
      chosen !== undefined ||
      (settings.select && role === 'user' && earlierOther !== undefined && !quoted && takesUpWhatWasSaid(sentence, korean));
    if (takesUp) analysis = { ...analysis, kind: 'statement', category: 'decision', priority: 'high' };
    if (settings.select && !takesUp) {
      // An attachment's description ("[image: a photo of a dog on a beach]") is not what was said: not a memory.
      if (ATTACHMENT.test(sentence)) continue;
      technical = detectTags(sentence, codeLanguages, 1, knownNames).length > 0;
      const reason = dropReason(sentence, analysis, korean, {
        role,
        names: knownNames,
        previousOther,
        dated: anchors.length > 0,
        technical,
        answers: answersQuestion,
        acknowledged: !korean && opensWithAcknowledgement(raw),
      });
      if (reason === 'remember request') rememberRequested = true;
      else if (reason !== undefined && reason !== 'acknowledgement') said.reacted = true;
      if (reason !== undefined && !(reason === 'small-talk question' && options.keepAssistantQuestions)) continue;
    }
    // "Let's go with that" / "그걸로 가자" names nothing: what it points at is what the other speaker just said, or
    // the sentence before it; a decision that points at nothing is no decision.
    let refersTo: string[] | undefined;
    let pointed = sentence;
    if (
      settings.select &&
      (chosen !== undefined ||
        pointsAtWhatWasSaid(sentence, korean) ||
        setsWhatWasSaid(sentence, korean) ||
        putsOffWhatWasSaid(sentence, korean))
    ) {
      if (earlierOther) {
        refersTo = [earlierOther.entryId, ...(earlierOther.askedEntryId ? [earlierOther.askedEntryId] : [])];
        const bare = korean ? sentence : sentence.replace(AGREEING_LEAD, '');
        pointed = `${(bare || sentence).replace(/[.!~\s]+$/, '')} (${korean ? '주제' : 'on'}: ${earlierOther.gist})`;
      } else if (pieces.length === 0 && analysis.category === 'decision') {
        analysis = { ...analysis, category: 'fact', priority: 'low' };
      }
    }
    const dated = settings.select
      ? (korean ? condenseKorean : condenseEnglish)(annotateDates(pointed, anchors))
      : annotateDates(sentence, anchors);
    let body: string;
    if (reported) {
      // As it was written: its "I" is whoever wrote the page or the e-mail, not the speaker.
      body = dated;
    } else if (analysis.kind === 'question') {
      body = korean
        ? `${speaker} 질문: ${restateKorean(dated, speaker)}`
        : questionBody(dated, speaker, listener, listenerName ?? (role === 'user' ? 'Assistant' : 'User'));
    } else {
      body = korean ? restateKorean(dated, speaker) : restateEnglish(dated, speaker, listener);
    }
    // #pin and #user_marked change what OC-Memory does with a line: only the user's own words give them.
    if (reported || role !== 'user') body = quoteControlTags(body);
    const worth = settings.select
      ? sentenceWorth(sentence, analysis, korean, { names: knownNames, dated: anchors.length > 0, technical })
      : 0;
    const piece: Piece = {
      analysis,
      body,
      korean,
      words: splitCount(sentence, SHORT_LEAD_WORDS + 1),
      raw,
      worth,
      ...(refersTo ? { refersTo } : {}),
      ...(chosen ? { chosen } : {}),
    };
    pieces.push(piece);
    if (asked && lastQuestion) lastQuestion.piece = piece;
  }
  mergeShortLeads(pieces);
  if (settings.select) joinWhatWasDecided(pieces, settings.maxChars);
  return { pieces, lastQuestion, rememberRequested };
}

const MAX_SENTENCE_CHARS = 400;

/** A sentence that only describes an attachment: "[image: a photo of a dog]". */
const ATTACHMENT = /^\[(?:image|photo|picture|file|video|audio|attachment|sticker|shared)\b[^\]]*\]$/i;

/** "Keep this straight for me: …", "Important: …": a lead-in asking to remember what follows. */
/** "Oh, please": what may come before a request to remember. */
const REQUEST_LEAD = /^(?:(?:oh|and|also|so|btw)[,\s]+)*(?:please\s+)?/;
const REMEMBER_WORDS = anyOf(
  /keep (?:this|that|it) (?:straight|in mind)(?: for me)?/,
  'remember(?: this| that)?',
  'important',
  'note to self',
  'for the record',
  "don't forget",
);
const REMEMBER_LEAD_IN = pattern([REQUEST_LEAD, REMEMBER_WORDS, /\s*[:,-]\s*\S/], 'i');

/**
 * "Please remember that the orders table is partitioned by created_at": the user asks to keep the
 * clause that follows (docs/priorities.md). Only the user's: an assistant's "keep in mind that …"
 * is how an explanation goes on, not a request.
 */
const REMEMBER_THAT = pattern([REQUEST_LEAD, /(?:remember|don't forget|do not forget|keep in mind|never forget) that\s+\S/], 'i');

/** Does an anchor point to a day after the message's (`futureDate` of the analysis)? */
function pointsAhead(anchors: readonly DateAnchor[], today: string): boolean {
  return anchors.some((a) => a.future && a.resolved !== today);
}

/** Does an anchor point to the past (`pastDate` of the analysis)? */
function pointsBack(anchors: readonly DateAnchor[]): boolean {
  return anchors.some((a) => !a.future);
}

/** A lead of at most this many words may join the next sentence. */
const SHORT_LEAD_WORDS = 3;

export const TOPIC_CHANGE =
  /^(?:btw|by the way|also|anyway|anyways|oh|p\.?s\.?|another thing|unrelated|separately|그리고|근데|그런데|참|아 참)\b/iu;

/** Kinds of statement that say what a pointing decision decided: not a task, preference or decision of its own. */
const DECIDED_SUBSTANCE = new Set(['fact', 'state', 'event']);

/**
 * "Let's do it. replicate to backblaze b2, …" / "then not now. stay on 3.12 until …": a decision that only points
 * at what the other proposed, and the sentence after it that says what was decided, are one decision — found by
 * what it decided, not a bare "decided to do it" beside a fact that names no decision.
 */
export function joinWhatWasDecided(pieces: Piece[], maxChars: number): void {
  for (let i = 0; i < pieces.length - 1; i++) {
    const lead = pieces[i]!;
    const next = pieces[i + 1]!;
    // A chosen option names what was decided: what follows it is news of its own ("I made an account").
    if (!lead.refersTo || lead.chosen || lead.analysis.category !== 'decision' || lead.analysis.kind !== 'statement') continue;
    if (next.refersTo || next.analysis.kind !== 'statement' || next.korean !== lead.korean) continue;
    if (!DECIDED_SUBSTANCE.has(next.analysis.category) || next.analysis.priority === 'high' || next.analysis.done) continue;
    if (TOPIC_CHANGE.test(next.raw) || lead.body.length + next.body.length + 1 > maxChars) continue;
    pieces.splice(i, 2, joinPieces(lead, next, lead.analysis));
  }
}

/** Two sentences as one piece: `analysis` (the one that leads its kind), with both sentences' words and worth. */
function joinPieces(lead: Piece, next: Piece, analysis: SentenceAnalysis): Piece {
  return {
    ...lead,
    analysis: {
      ...analysis,
      working: lead.analysis.working || next.analysis.working,
      contentWords: lead.analysis.contentWords + next.analysis.contentWords,
    },
    body: `${finishSentence(lead.body)} ${next.body}`,
    words: lead.words + next.words,
    raw: `${lead.raw} ${next.raw}`,
    worth: lead.worth + next.worth,
  };
}

/**
 * A very short statement that leans on the next sentence ("Fixed it! Migrations
 * run cleanly now.") is joined to it: one observation with the stronger category.
 */
export function mergeShortLeads(pieces: Piece[]): void {
  for (let i = 0; i < pieces.length - 1; i++) {
    const lead = pieces[i]!;
    const next = pieces[i + 1]!;
    if (lead.words > SHORT_LEAD_WORDS || lead.analysis.kind !== 'statement' || next.analysis.kind !== 'statement') continue;
    // "Let's do it." decides what the other said (its topic and citation): joinWhatWasDecided joins what follows it.
    if (lead.refersTo || next.refersTo) continue;
    // "Merged it. Btw, my name is Dana": the next sentence starts another topic.
    if (TOPIC_CHANGE.test(next.raw) || (next.analysis.priority === 'high' && next.analysis.category !== lead.analysis.category)) continue;
    const a = lead.analysis.category !== 'fact' || lead.analysis.done ? lead.analysis : next.analysis;
    const priority =
      PRIORITY_RANK[lead.analysis.priority] > PRIORITY_RANK[next.analysis.priority] ? lead.analysis.priority : next.analysis.priority;
    pieces.splice(i, 2, joinPieces(lead, next, { ...a, priority }));
  }
}
