/**
 * The schedule files for launchd, systemd and Windows Task Scheduler, checked
 * as data: the plist parsed with a plist parser, the unit files parsed (and
 * verified by systemd-analyze where it exists), the task XML parsed as XML
 * and decoded from UTF-16 — plus golden copies so any change is deliberate.
 * Set UPDATE_GOLDEN=1 to rewrite the golden files after an intended change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import * as plist from 'plist';
import { DOMParser, type Document } from '@xmldom/xmldom';
import {
  cronSchedule,
  encodeUtf16le,
  loadScheduleTemplates,
  planSchedule,
  renderCronBlock,
  renderLaunchdPlist,
  renderSchtasksXml,
  renderSystemdUnits,
  scheduleNames,
  shQuote,
  everyFromCron,
  type ScheduleTarget,
} from '../../lib/jobs/schedule/index.js';

const GOLDEN = resolve(import.meta.dirname, '..', 'fixtures', 'schedule');

const plain: ScheduleTarget = {
  node: '/usr/local/bin/node',
  cli: '/opt/oc-memory/dist/scripts/cli.js',
  home: '/home/ada/.openclaw/oc-memory',
  log: '/home/ada/.openclaw/oc-memory/logs/schedule.log',
  everyMinutes: 5,
  defaultHome: true,
};

/** Every character that needs escaping somewhere: space, quotes, %, $, &, <, backslash. */
const nasty: ScheduleTarget = {
  node: '/opt/node 20/bin/node',
  cli: '/opt/it\'s "here"/cli.js',
  home: '/home/ada/My Memory & 100% <ok> $HOME\\x',
  log: '/home/ada/My Memory & 100% <ok> $HOME\\x/logs/schedule.log',
  everyMinutes: 15,
  defaultHome: false,
};

const NOW = new Date(2026, 1, 12, 9, 30, 0);

async function golden(name: string, actual: string): Promise<void> {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) {
    await mkdir(GOLDEN, { recursive: true });
    await writeFile(path, actual);
  }
  assert.equal(actual, await readFile(path, 'utf8'), `${name} differs from its golden copy (UPDATE_GOLDEN=1 to accept)`);
}

/** A small systemd unit-file parser: sections of key=value, comments skipped. */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const s = /^\[([^\]]+)\]$/.exec(line);
    if (s) {
      section = s[1]!;
      out[section] ??= {};
      continue;
    }
    const kv = /^([A-Za-z0-9]+)=(.*)$/.exec(line);
    assert.ok(kv && section, `unit line is key=value inside a section: ${line}`);
    (out[section]![kv[1]!] ??= []).push(kv[2]!);
  }
  return out;
}

/** systemd's ExecStart word splitting for double-quoted words, then % and $ unescaping. */
function execWords(value: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value))) words.push(m[1]!.replace(/\\(.)/g, '$1').replace(/%%/g, '%').replace(/\$\$/g, '$'));
  return words;
}

function parseXml(text: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level: string, message: string) => void (level !== 'warning' && errors.push(message)),
  }).parseFromString(text, 'text/xml');
  assert.deepEqual(errors, [], 'the XML is well-formed');
  return doc;
}

test('cron: schedule fields for every interval cron can express, refusal for the others', () => {
  assert.equal(cronSchedule(1), '* * * * *');
  assert.equal(cronSchedule(5), '*/5 * * * *');
  assert.equal(cronSchedule(60), '0 * * * *');
  assert.equal(cronSchedule(180), '0 */3 * * *');
  assert.equal(cronSchedule(1440), '0 0 * * *');
  for (const n of [1, 2, 5, 15, 30, 60, 120, 360, 1440]) assert.equal(everyFromCron(`${cronSchedule(n)} x`), n);
  assert.throws(() => cronSchedule(7), /every 7 minutes evenly/);
  assert.throws(() => cronSchedule(90), /every 90 minutes/);
  assert.throws(() => cronSchedule(0), /1 to 1440/);
});

test('cron: the block is golden, and the command survives /bin/sh with nasty paths', async () => {
  const t = await loadScheduleTemplates();
  await golden('crontab.txt', `${renderCronBlock(t.crontab, plain)}\n`);
  const block = renderCronBlock(t.crontab, nasty);
  const line = block.split('\n')[1]!;
  assert.ok(line.startsWith('*/15 * * * * '));
  assert.ok(!/[^\\]%/.test(line), 'every % is escaped for cron');
  // cron turns \% back into %, then hands the rest to /bin/sh: split it the way sh does.
  const command = line.slice('*/15 * * * * '.length).replace(/\\%/g, '%');
  const r = await execa('sh', ['-c', `set -- ${command.replace(/ >>.*$/, '')}; for a in "$@"; do printf '%s\\0' "$a"; done`]);
  assert.deepEqual(r.stdout.split('\0').filter(Boolean), [nasty.node, nasty.cli, 'run', '--home', nasty.home]);
  assert.equal(shQuote("a'b"), `'a'\\''b'`);
});

test('launchd: the plist parses, runs node cli run --home, every N minutes, logs to the file; golden', async () => {
  const t = await loadScheduleTemplates();
  const xml = renderLaunchdPlist(t.launchd, plain);
  await golden('launchd.plist', xml);
  for (const target of [plain, nasty]) {
    const data = plist.parse(renderLaunchdPlist(t.launchd, target)) as Record<string, unknown>;
    assert.equal(data.Label, scheduleNames(target).label);
    assert.deepEqual(data.ProgramArguments, [target.node, target.cli, 'run', '--home', target.home]);
    assert.equal(data.StartInterval, target.everyMinutes * 60);
    assert.equal(data.RunAtLoad, true);
    assert.equal(data.StandardOutPath, target.log);
    assert.equal(data.StandardErrorPath, target.log);
  }
  assert.equal(scheduleNames(plain).label, 'ai.oc-memory.run');
  assert.match(scheduleNames(nasty).label, /^ai\.oc-memory\.run\.[0-9a-f]{8}$/);
});

test('systemd: service and timer parse, ExecStart words round-trip, systemd-analyze verify accepts them; golden', async () => {
  const t = await loadScheduleTemplates();
  const units = renderSystemdUnits({ service: t.systemdService, timer: t.systemdTimer }, plain);
  await golden('oc-memory.service', units.service);
  await golden('oc-memory.timer', units.timer);
  for (const target of [plain, nasty]) {
    const u = renderSystemdUnits({ service: t.systemdService, timer: t.systemdTimer }, target);
    const service = parseUnit(u.service);
    const timer = parseUnit(u.timer);
    assert.equal(service.Service!.Type![0], 'oneshot');
    assert.deepEqual(execWords(service.Service!.ExecStart![0]!), [target.node, target.cli, 'run', '--home', target.home]);
    assert.equal(service.Service!.StandardOutput![0]!.replace(/%%/g, '%'), `append:${target.log}`);
    assert.equal(timer.Timer!.OnUnitActiveSec![0], `${target.everyMinutes}min`);
    assert.equal(timer.Timer!.Unit![0], `${scheduleNames(target).unit}.service`);
    assert.equal(timer.Install!.WantedBy![0], 'timers.target');
  }
  const which = await execa('sh', ['-c', 'command -v systemd-analyze'], { reject: false });
  if (which.exitCode !== 0) return; // verified as data above; the real verifier only where systemd is installed
  const dir = await mkdtemp(join(tmpdir(), 'ocm-units-'));
  try {
    // Point ExecStart at things that exist here so verify checks the syntax, not this machine's paths.
    const real = { ...plain, node: process.execPath, cli: resolve('package.json') };
    const u = renderSystemdUnits({ service: t.systemdService, timer: t.systemdTimer }, real);
    await writeFile(join(dir, 'oc-memory.service'), u.service);
    await writeFile(join(dir, 'oc-memory.timer'), u.timer);
    const r = await execa('systemd-analyze', ['verify', join(dir, 'oc-memory.timer'), join(dir, 'oc-memory.service')], { reject: false });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Unknown|ignoring|Invalid/i, r.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('schtasks: the task XML parses (from UTF-16 with BOM), has the task namespace, interval and cmd /c command; golden', async () => {
  const t = await loadScheduleTemplates();
  const xml = renderSchtasksXml(t.schtasks, plain, NOW);
  await golden('schtasks.xml', xml);
  for (const target of [plain, nasty]) {
    const text = renderSchtasksXml(t.schtasks, target, NOW);
    const bytes = encodeUtf16le(text);
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xfe], 'UTF-16LE byte-order mark');
    const decoded = bytes.subarray(2).toString('utf16le');
    assert.ok(decoded.includes('\r\n'), 'Windows line endings');
    const doc = parseXml(decoded);
    const task = doc.documentElement!;
    assert.equal(task.tagName, 'Task');
    assert.equal(task.getAttribute('xmlns'), 'http://schemas.microsoft.com/windows/2004/02/mit/task');
    const one = (name: string) => doc.getElementsByTagName(name)[0]?.textContent ?? '';
    assert.equal(one('Interval'), `PT${target.everyMinutes}M`);
    assert.equal(one('StartBoundary'), '2026-02-12T09:30:00');
    assert.equal(one('URI'), `\\${scheduleNames(target).task}`);
    assert.equal(one('Command'), 'cmd.exe');
    const args = one('Arguments');
    assert.ok(args.startsWith('/d /s /c "'));
    for (const part of [target.node, target.cli, target.home, target.log])
      assert.ok(args.includes(`"${part.replace(/"/g, '""')}"`), `arguments quote ${part}`);
    assert.match(args, / "run" "--home" /);
    assert.match(args, /2>&1"$/);
  }
});

test("the plan names each platform's files under the user's folders and the commands it runs", () => {
  return loadScheduleTemplates().then((t) => {
    const env = { runner: async () => ({ code: 0, stdout: '', stderr: '' }), userHome: '/home/ada', uid: 501, now: NOW };
    const l = planSchedule('launchd', plain, t, env);
    assert.equal(l.files[0]!.path, '/home/ada/Library/LaunchAgents/ai.oc-memory.run.plist');
    assert.deepEqual(l.commands[1], ['launchctl', 'bootstrap', 'gui/501', l.files[0]!.path]);
    const s = planSchedule('systemd', plain, t, { ...env, xdgConfigHome: '/home/ada/.cfg' });
    assert.deepEqual(
      s.files.map((f) => f.path),
      ['/home/ada/.cfg/systemd/user/oc-memory.service', '/home/ada/.cfg/systemd/user/oc-memory.timer'],
    );
    assert.deepEqual(s.commands[1], ['systemctl', '--user', 'enable', '--now', 'oc-memory.timer']);
    const w = planSchedule('schtasks', plain, t, env);
    assert.deepEqual(w.commands[0], [
      'schtasks',
      '/Create',
      '/TN',
      'OC-Memory',
      '/XML',
      join(plain.home, '.ocm', 'schedule', 'OC-Memory.xml'),
      '/F',
    ]);
    assert.ok(w.files[0]!.bytes);
  });
});
