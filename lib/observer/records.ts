/**
 * The messages and observations the heuristic Observer's threads build by the
 * thousand, made by `new` rather than as object literals.
 *
 * They live until their batch is done, and V8 tracks each object or array literal
 * by its allocation site: after a few garbage collections in which that site's
 * objects survived, it switches the site to old-space allocation and deoptimises
 * every optimised function that inlined it (observeWithRules, detectTags,
 * readMessages, readObservations…), which are then compiled again. Objects made by
 * `new` (these constructors, a class, `new Array()`) carry no such site.
 *
 * The objects are plain all the same: same properties in the same order, and
 * Object.prototype as their prototype, so each is (strictly) deep-equal to the
 * literal it replaces.
 */
import type { Message, Observation, Priority, Provenance, Role, SourceKind } from '../types.js';

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

export const ProvenanceRecord = plainConstructor(function (this: Provenance, source: SourceKind | string, agent: string, session: string, entryIds: string[]) {
  this.source = source;
  this.agent = agent;
  this.session = session;
  this.entryIds = entryIds;
});

export const ObservationRecord = plainConstructor(function (
  this: Observation,
  id: string,
  date: string,
  time: string,
  priority: Priority,
  done: boolean,
  category: string,
  text: string,
  tags: string[],
  agent: string,
  provenance: Provenance,
) {
  this.id = id;
  this.date = date;
  this.time = time;
  this.priority = priority;
  this.done = done;
  this.category = category;
  this.text = text;
  this.tags = tags;
  this.agent = agent;
  this.provenance = provenance;
});
