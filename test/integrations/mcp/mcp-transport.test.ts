/**
 * `ocm-run mcp` as a child process, spoken to line by line over stdio: a message over the 10 MB limit is
 * refused with a JSON-RPC error and the next request is served; a line that is not JSON is logged without
 * its text; `remember` of a login answers that the password was masked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { tempHome } from '../../helpers/search-fixtures.js';

type Response = { id?: number | string | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

test('mcp: an 11 MB message gets a JSON-RPC error and the server keeps serving; a non-JSON line is logged without its text', async () => {
  const paths = await tempHome();
  const home = paths.root;
  await writeFile(join(home, 'config.yaml'), 'timezone: UTC\n');
  const child = spawn(process.execPath, [CLI, 'mcp', '--home', home], {
    env: { PATH: process.env.PATH ?? '', HOME: home, CI: '1', TZ: 'UTC' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const responses = new Map<number | string, Response>();
  const waiters = new Map<number | string, (r: Response) => void>();
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
      const r = JSON.parse(out.slice(0, nl)) as Response;
      out = out.slice(nl + 1);
      if (r.id === undefined || r.id === null) continue;
      responses.set(r.id, r);
      waiters.get(r.id)?.(r);
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const answer = (id: number) =>
    Promise.race([
      responses.has(id) ? Promise.resolve(responses.get(id)!) : new Promise<Response>((resolve) => waiters.set(id, resolve)),
      exited.then((code) => assert.fail(`the server ended (exit ${code}) before answering request ${id}: ${stderr.slice(-500)}`)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer to request ${id} within 60 s`)), 60_000).unref()),
    ]);
  try {
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
    });
    assert.ok((await answer(1)).result, 'initialized');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // Written as the SDK's client writes a request: method, params, then jsonrpc and id last.
    const huge = `{"method":"tools/call","params":{"name":"search_memory","arguments":{"query":"${'a'.repeat(11 * 1024 * 1024)}"}},"jsonrpc":"2.0","id":2}\n`;
    child.stdin.write(huge);
    const refused = await answer(2);
    assert.equal(refused.error?.code, -32600, JSON.stringify(refused));
    assert.match(refused.error!.message, /The message is 11\.0 MB; OC-Memory's MCP server reads messages up to 10\.0 MB/);

    const key = ['sk', 'live', '51', 'Hx9fQ2mTz8LwP4nJ7bYc1HdE6sFuA3kR'].join('_');
    child.stdin.write(`${key} oops, pasted into the wrong window\n`);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
    const listed = await answer(3);
    assert.ok(Array.isArray(listed.result?.tools), 'the next request is served');

    // Remembering a login: the password is masked and the answer says so.
    const password = ['Glaze', '&Kiln', '2026!'].join('');
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'remember', arguments: { text: `User's Etsy login is helenpark.clay / ${password}` } },
    });
    const remembered = JSON.stringify((await answer(4)).result);
    assert.match(remembered, /password masked: OC-Memory keeps no passwords or keys/);
    assert.ok(!remembered.includes('Kiln2026'), remembered);

    child.stdin.end();
    assert.equal(await exited, 0, stderr);
    const log = await readFile(join(home, 'logs', 'mcp.log'), 'utf8');
    assert.match(log, /"event":"mcp\.message_too_large".*"bytes":1153\d{4}/);
    assert.match(log, /is not JSON; it was skipped/);
    assert.ok(!log.includes('sk_live') && !log.includes(key.slice(8, 20)), `the log quotes the line:\n${log}`);
    const day = await readFile(join(home, 'memory', (await readdir(join(home, 'memory'))).find((f) => f.endsWith('.md'))!), 'utf8');
    assert.ok(!day.includes('Kiln2026'), day);
  } finally {
    child.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  }
});
