/**
 * Terminal control characters in text that reaches memory: ANSI/ECMA-48
 * escape sequences (CSI: colours, screen clear, concealed text; OSC: window
 * title, hyperlinks, clipboard; DCS/SOS/PM/APC strings), C0 controls but tab
 * and line feed, DEL and the C1 controls. Text read from a transcript may be
 * quoted from a web page, a file or a tool's output; such bytes would clear
 * the screen of whoever prints the memory, retitle the terminal or hide text
 * from the user that the model still reads. Pure.
 *
 * On the way in they are removed (whole sequences, so no `[2J` is left
 * behind; CR LF and a lone CR become LF); on the way out to a terminal any
 * that a hand-edited file still holds are shown escaped (`\x1b`).
 */
import { oneOf } from './pattern.js';

/*
 * One alternation, tried left to right: an escape sequence with a string body (OSC, DCS, SOS, PM, APC; ended
 * by BEL or ST, or cut at 4096 characters), a CSI sequence (ESC [ or C1 CSI, parameters, intermediates, a final
 * byte), any other two-character escape, then a single control character. Bounded repetitions: linear time.
 */
const CONTROL = oneOf(
  [
    // OSC, DCS, SOS, PM, APC and their string body, ended by BEL or ST.
    /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]{0,4096}(?:\u0007|\u001b\\|\u009c)?/,
    // CSI: parameters, intermediates, a final byte.
    /(?:\u001b\[|\u009b)[\u0030-\u003f]{0,64}[\u0020-\u002f]{0,16}[\u0040-\u007e]?/,
    // Any other escape.
    /\u001b[\u0020-\u002f]{0,8}[\u0030-\u007e]?/,
    /\r\n?/,
    // A single control character.
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
  ],
  'g',
);
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Whether `text` holds a control character other than tab and line feed. */
export function hasControlChars(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/** `text` without escape sequences and control characters (tab and line feed kept; CR LF and CR become LF). */
export function stripControlChars(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (match) => (match.charCodeAt(0) === 0x0d ? '\n' : ''));
}

// eslint-disable-next-line no-control-regex
const SHOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` for a terminal: every control character but tab and line feed written as `\xNN`, so none acts. */
export function escapeControlChars(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  SHOWN.lastIndex = 0;
  return text.replace(SHOWN, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

// eslint-disable-next-line no-control-regex
const JSON_UNESCAPED = /[\u007f-\u009f]/g;

/**
 * JSON text with DEL and the C1 controls written as `\u00NN` (JSON.stringify escapes only U+0000–U+001F):
 * the same JSON value, and nothing in it a terminal acts on. These characters can only stand inside strings.
 */
export function escapeJsonControls(json: string): string {
  JSON_UNESCAPED.lastIndex = 0;
  return json.replace(JSON_UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
