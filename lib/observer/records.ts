/**
 * The observations the heuristic Observer's threads build by the thousand, made
 * by `new` rather than as object literals (why: lib/plain-record.ts). They live
 * until their batch is done.
 */
import { plainConstructor } from '../plain-record.js';
import type { Observation, Priority, Provenance, SourceKind } from '../types.js';

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
