/**
 * A batch's observations from its drafts, in order: screened (memory/suspicious.ts),
 * one per id (a repeat adds its entries to the first's provenance), and the
 * session's current task.
 */
import { observationIdOfLine } from '../../memory/observation-line.js';
import type { Observation, ObserverBatch, ObserverResult, Provenance } from '../../core/types.js';
import { controlTagsIn, screenCurrentTask, screenLine } from '../../memory/suspicious.js';
import { entryIdsOf, type Draft } from './draft.js';

const NO_CONTROL_TAGS: ReadonlySet<string> = new Set();

/** A batch's observations from its drafts, in order: one per id, and the current task. */
export class ObservationList {
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
    if (screened !== d)
      Object.assign(d, {
        text: screened.text,
        tags: screened.tags,
        category: screened.category,
        priority: screened.priority,
        done: screened.done,
      });
    // (A draft's text is finishText()'s, which is oneLine()'s.)
    const id = observationIdOfLine({ agent: batch.agent, session: batch.session, date: d.local.date, category: d.category, text: d.text });
    const existing = this.byId.get(id);
    if (existing) {
      const ids = existing.provenance!.entryIds;
      const more = entryIdsOf(d);
      for (const e of more) if (!ids.includes(e)) ids.push(e);
      return;
    }
    const provenance: Provenance = {
      source: d.message.source ?? batch.source,
      agent: batch.agent,
      session: batch.session,
      entryIds: entryIdsOf(d),
    };
    const obs: Observation = {
      id,
      date: d.local.date,
      time: d.local.time,
      priority: d.priority,
      done: d.done,
      category: d.category,
      text: d.text,
      tags: d.tags,
      agent: batch.agent,
      provenance,
    };
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
    const strength = d.working || (d.category === 'task' && !d.question) ? 1 : d.category === 'task' ? 0 : -1;
    if (strength >= 0 && strength >= this.currentTaskStrength) {
      this.currentTask = d.text;
      this.currentTaskStrength = strength;
    }
  }
}
