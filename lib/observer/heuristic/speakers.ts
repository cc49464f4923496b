/**
 * Who is speaking: names of the two parties when the transcript reveals them.
 * People address each other in greetings and thanks ("Hey Caroline!",
 * "Thanks, Mel!"); the name one role uses for the other is that other role's
 * name. Pure functions.
 */
import type { Message } from '../../core/types.js';
import { isCommonWord } from './rules/en.js';

export interface SpeakerNames {
  /** Name of the person behind `user` messages. */
  user?: string;
  /** Name behind `assistant` messages (an agent's name, or the second person in a chat between people). */
  assistant?: string;
}

/** Words that open a greeting or thanks (regular-expression alternatives). */
const OPENER_WORDS = [
  'hey',
  'hi',
  'hello',
  'hiya',
  'heya',
  'yo',
  'howdy',
  'morning',
  'good (?:morning|afternoon|evening)',
  'thanks',
  'thank you',
  'thx',
  'cheers',
  'wow',
  'congrats',
  'congratulations',
  'sorry',
  'bye',
  'see you',
  'see ya',
  'take care',
  'ok(?:ay)?',
  'yes',
  'yeah',
  'oh',
  'aw+',
  'dear',
];
const OPENERS = `(?:${OPENER_WORDS.join('|')})`;
/** "Hey Caroline!", "Thanks, Mel.", "Aww, congrats Jo!" */
const GREETING = new RegExp(
  String.raw`(?:^|[\s,.!?])${OPENERS}(?:[\s,!]+${OPENERS})?[\s,]+(\p{Lu}\p{Ll}{1,20})\b(?!['’]s)\s*[,!.?]`,
  'giu',
);
/** "…, Caroline!" ending a sentence. */
const TRAILING = /,\s*(\p{Lu}\p{Ll}{1,20})\s*[!.?]+(?:\s|$)/gu;

/** Words that look like vocatives but are not names. */
const NOT_A_NAME = new Set([
  'man',
  'dude',
  'bro',
  'guys',
  'folks',
  'buddy',
  'pal',
  'friend',
  'mate',
  'sir',
  'madam',
  'everyone',
  'all',
  'team',
  'there',
  'again',
  'everybody',
  'assistant',
  'user',
  'bot',
  'god',
  'gosh',
  'lord',
  'jeez',
  'jesus',
  'boss',
  'chief',
  'honey',
  'babe',
  'love',
  'sweetie',
  'darling',
  'mom',
  'dad',
  'mum',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'tomorrow',
  'tonight',
  'today',
  'soon',
  'later',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]);

function candidates(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(GREETING)) out.push(m[1]!);
  for (const m of text.matchAll(TRAILING)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out.filter((n) => !NOT_A_NAME.has(n.toLowerCase()) && !isCommonWord(n));
}

/**
 * Learns the two parties' names message by message. The name used for a
 * message depends only on the messages before and including it, so
 * re-observing a batch that starts at the same place (after a crash, with
 * more messages appended) gives the same names for the same messages.
 */
export class SpeakerNameTracker {
  private readonly counts = { user: new Map<string, number>(), assistant: new Map<string, number>() };

  /** Count the vocatives in one message. */
  add(message: Pick<Message, 'role' | 'text'>): void {
    if (message.role !== 'user' && message.role !== 'assistant') return;
    // What the user calls someone is the assistant's name, and the reverse.
    const target = message.role === 'user' ? this.counts.assistant : this.counts.user;
    for (const name of candidates(message.text)) target.set(name, (target.get(name) ?? 0) + 1);
  }

  /**
   * A role's name is the one the other role addresses most often (at least
   * twice, or once when it is the only candidate); nicknames that start a
   * longer candidate count for it ("Mel" → "Melanie").
   */
  names(): SpeakerNames {
    const user = pick(this.counts.user);
    const assistant = pick(this.counts.assistant);
    const out: SpeakerNames = {};
    if (user) out.user = user;
    if (assistant && assistant !== user) out.assistant = assistant;
    return out;
  }
}

function pick(counts: Map<string, number>): string | undefined {
  const map = new Map(counts);
  const names = [...map.keys()];
  for (const short of names) {
    const full = names.find((n) => n !== short && n.startsWith(short));
    if (full) {
      map.set(full, (map.get(full) ?? 0) + (map.get(short) ?? 0));
      map.delete(short);
    }
  }
  const ranked = [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (ranked.length === 0) return undefined;
  const [name, n] = ranked[0]!;
  return n >= 2 || ranked.length === 1 ? name : undefined;
}

/** Names the two roles use for each other across `messages`. */
export function inferSpeakerNames(messages: readonly Pick<Message, 'role' | 'text'>[]): SpeakerNames {
  const tracker = new SpeakerNameTracker();
  for (const m of messages) tracker.add(m);
  return tracker.names();
}
