/**
 * One observation: its edit and forget pages, and the changes a page sends
 * (edit, pin, done, a lifecycle mark, forget, "remember this"), each through
 * lib/ui/curate.ts and answered with a redirect back to the page it came from.
 */
import type { Hono } from 'hono';
import { DEFAULT_AGENT } from '../../platform/home.js';
import type { ObservationMark } from '../../core/types.js';
import { localDateTime, resolveTimeZone } from '../../platform/time-zone.js';
import { addObservation, duplicateId, editObservation, forgetObservations, parsePriority, parseTags } from '../curate.js';
import { taking, UiProblem } from '../problems.js';
import { editForm, forgetForm, layout, type ObservationView } from '../pages.js';
import { safeBack, withNote, type PageContext } from '../page-context.js';

export function mountObservation(app: Hono, page: PageContext): void {
  const { config, options, memory, curate, frameOf, maskView, form } = page;
  const findObservation = async (fileRef: string, id: string): Promise<ObservationView> => {
    const file = await memory.dayFile(fileRef);
    const same = file ? (await memory.dayObservations(file)).filter((o) => o.id === id && !o.anonymous) : [];
    if (same.length > 1)
      throw duplicateId(
        id,
        fileRef,
        same.map((o) => o.startLine),
      );
    const found = same[0];
    if (!found) throw new UiProblem('NOT_FOUND', 'notInFile', { id, file: fileRef });
    return found;
  };

  app.get('/observation', async (c) => {
    const frame = frameOf(c, 'timeline');
    const o = await findObservation(c.req.query('file') ?? '', c.req.query('id') ?? '');
    return c.html(layout(frame, frame.m.editTitle, editForm(frame, maskView(o), safeBack(c.req.query('back')))));
  });

  app.get('/observation/forget', async (c) => {
    const frame = frameOf(c, 'timeline');
    const o = await findObservation(c.req.query('file') ?? '', c.req.query('id') ?? '');
    return c.html(layout(frame, frame.m.forgetTitle, forgetForm(frame, maskView(o), safeBack(c.req.query('back')))));
  });

  app.post('/observation/edit', async (c) => {
    const f = await form(c);
    // Text left as the page showed it is not written: the page shows it masked, and writing that back would
    // replace a secret (or a false positive of the masking rules) in the file by [REDACTED:…] on a change of priority.
    const unchanged = f.shown !== undefined && (f.text ?? '').trim() === f.shown.trim();
    const r = await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () =>
      editObservation(curate, f.file ?? '', f.id ?? '', {
        text: unchanged ? undefined : (f.text ?? ''),
        priority: parsePriority(f.priority ?? ''),
        category: f.category ?? '',
        tags: parseTags(f.tags ?? ''),
        done: f.done === 'true',
      }),
    );
    return c.redirect(withNote(safeBack(f.back), 'saved', `${f.id} → ${r.path}`), 303);
  });

  app.post('/observation/pin', async (c) => {
    const f = await form(c);
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () =>
      editObservation(curate, f.file ?? '', f.id ?? '', { pinned: f.pinned === 'true' }),
    );
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/done', async (c) => {
    const f = await form(c);
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () =>
      editObservation(curate, f.file ?? '', f.id ?? '', { done: f.done === 'true' }),
    );
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/mark', async (c) => {
    const f = await form(c);
    const kind = f.mark ?? 'clear';
    if (kind !== 'clear' && kind !== 'done' && kind !== 'superseded') throw new UiProblem('BAD_INPUT', 'badMark', { value: kind });
    const by = (f.by ?? '').trim().replace(/^\^/, '');
    if (kind === 'superseded' && !/^o-[0-9a-f]{6,}$/.test(by)) throw new UiProblem('BAD_INPUT', 'badMarkBy', { value: by });
    const today = localDateTime(options.now(), resolveTimeZone(config.timezone)).date;
    const mark: ObservationMark | null = kind === 'clear' ? null : { kind, date: today, ...(kind === 'superseded' ? { by } : {}) };
    await taking('edit', { id: f.id ?? '', file: f.file ?? '' }, () => editObservation(curate, f.file ?? '', f.id ?? '', { mark }));
    return c.redirect(withNote(safeBack(f.back), 'saved', f.id), 303);
  });

  app.post('/observation/forget', async (c) => {
    const f = await form(c);
    const r = await taking('forget', { id: f.id ?? '' }, () => forgetObservations(curate, [f.id ?? '']));
    // The page it came from may have been the observation's own: go back to where it was listed.
    return c.redirect(withNote(safeBack(f.back), typeof r === 'string' ? r : 'forgot', f.id), 303);
  });

  app.post('/observation/add', async (c) => {
    const f = await form(c);
    const agent = (f.agent ?? DEFAULT_AGENT).trim() || DEFAULT_AGENT;
    if (!(f.text ?? '').trim()) throw new UiProblem('BAD_INPUT', 'emptyRemember');
    const r = await taking('add', {}, () =>
      addObservation(curate, {
        agent,
        text: f.text ?? '',
        priority: parsePriority(f.priority ?? 'high'),
        category: (f.category ?? 'fact').trim().toLowerCase() || 'fact',
        tags: parseTags(f.tags ?? ''),
      }),
    );
    return c.redirect(withNote(safeBack(f.back), r.added ? 'added' : 'alreadyThere', r.observation.id), 303);
  });
}
