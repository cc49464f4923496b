/**
 * Objects made by the thousand and kept a while (a reader's per-entry results,
 * the Observer's messages and observations), made by `new` rather than as
 * object literals.
 *
 * V8 tracks each object or array literal by its allocation site: after a few
 * garbage collections in which that site's objects survived, it switches the
 * site to old-space allocation and deoptimises every optimised function that
 * inlined it (as a "code dependency": the whole function is compiled again).
 * Objects made by `new` (these constructors, a class, `new Array()`) carry no
 * such site.
 *
 * The objects are plain all the same: same properties in the same order, and
 * Object.prototype as their prototype, so each is (strictly) deep-equal to the
 * literal it replaces.
 */
import type { Message, Role, SourceKind } from './types.js';

/** A constructor whose objects have Object.prototype as their prototype, as literals do. */
export function plainConstructor<A extends unknown[], T>(init: (this: T, ...args: A) => void): new (...args: A) => T {
  init.prototype = Object.prototype;
  return init as unknown as new (...args: A) => T;
}

export const MessageRecord = plainConstructor(function (
  this: Message,
  role: Role,
  text: string,
  time: string,
  entryId: string,
  source: SourceKind,
  agent: string,
  session: string,
) {
  this.role = role;
  this.text = text;
  this.time = time;
  this.entryId = entryId;
  this.source = source;
  this.agent = agent;
  this.session = session;
});
