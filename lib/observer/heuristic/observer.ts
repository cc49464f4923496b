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
 * The modules, one concept each: `pieces.ts` reads a message's sentences
 * into pieces, `observe-message.ts` makes one message's drafts (`draft.ts`),
 * `message-loop.ts` carries what one message passes to the next (the question
 * it asks, what it said, a follow-up to join), `observation-list.ts` turns the
 * drafts into the batch's observations. The wording: `attribution.ts` (who
 * said it, as data), `reply-topic.ts` (an answer's topic), `points-back.ts`
 * ("let's go with that"), `finish-text.ts` (one line, one period).
 *
 * Deterministic: the same batch and options give the same observations and
 * ids, so re-observing after a crash cannot duplicate anything.
 */
import type { Observation, Observer, ObserverBatch, ObserverResult } from '../../core/types.js';
import { SpeakerNameTracker, type SpeakerNames } from './speakers.js';
import { localClock, localDateTime } from './time.js';
import type { Draft } from './draft.js';
import type { MessageSettings } from './observe-message.js';
import { MessageLoop } from './message-loop.js';
import { ObservationList } from './observation-list.js';

export { readableStart } from './message-text.js';
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
