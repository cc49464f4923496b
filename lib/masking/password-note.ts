/**
 * The note a masked credential gets when the user asked to remember it: the
 * memory says why the password is not there, instead of keeping a bare
 * `[REDACTED:password]` the user may take for a bug. Pure.
 */

/** A request to keep something: "remember my Etsy login", "save this", "기억해줘", "저장해". */
const ASKS_TO_REMEMBER = /\b(?:remember|memori[sz]e|save|keep|note (?:down|this|that)|write (?:down|this|that))\b|기억|저장|메모해/i;
/** Redactions of a password, a credential or a labelled secret (not of a key format such as an OpenAI key). */
const CREDENTIAL_REDACTION = /\[REDACTED:(?:password|credential|secret)\]/;
const HANGUL = /[\uac00-\ud7a3]/;

export const PASSWORD_NOTE_EN = 'password masked: OC-Memory keeps no passwords or keys';
export const PASSWORD_NOTE_KO = '비밀번호는 가렸음: OC-Memory는 비밀번호와 키를 보관하지 않음';

/** The note for a masked text (in the text's language), or undefined when it masked no credential. */
export function passwordNote(masked: string): string | undefined {
  if (!CREDENTIAL_REDACTION.test(masked)) return undefined;
  return HANGUL.test(masked) ? PASSWORD_NOTE_KO : PASSWORD_NOTE_EN;
}

/**
 * `masked` with the note in parentheses when it asks to remember something and
 * a credential was masked out of it; unchanged otherwise (and when the note is
 * there already).
 */
export function withPasswordNote(masked: string): string {
  const note = passwordNote(masked);
  if (note === undefined || masked.includes(note) || !ASKS_TO_REMEMBER.test(masked)) return masked;
  return `${masked} (${note})`;
}
