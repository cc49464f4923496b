import { defineCommand } from '../cli-context.js';

/** The platform's "open this address in the browser" command. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '', url]];
  return ['xdg-open', [url]];
}

export const command = defineCommand({
  name: 'ui',
  description:
    'A local web dashboard over the memory: timeline, search, edit / pin / forget, active memory, tiers and approvals, health and charts',
  flags: {
    port: { value: '<n>', description: 'Port on 127.0.0.1 (default 4747; 0: any free port)' },
    open: { description: 'Open the dashboard in the browser' },
  },
  examples: ['ocm-run ui', 'ocm-run ui --open', 'ocm-run ui --port 0 --home /tmp/demo'],
  async run(ctx, _args, options) {
    const { OcmError } = await import('../../lib/api/errors.js');
    const { DEFAULT_UI_PORT, startUiServer } = await import('../../lib/ui/server.js');
    const port = options.port === undefined ? DEFAULT_UI_PORT : /^\d{1,5}$/.test(options.port) ? Number(options.port) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      throw new OcmError('BAD_INPUT', `--port "${options.port}" is not a port number (0 to 65535).`, {
        hint: 'For example --port 4747, or --port 0 for any free port.',
      });
    }
    const { config } = await ctx.config();
    const logger = ctx.logger('ui');
    // The REST API's token: $OCM_API_TOKEN for scripts that keep one, else a new one per run (docs/rest-api.md).
    const apiToken = ctx.env.OCM_API_TOKEN?.trim() || undefined;
    if (apiToken !== undefined && apiToken.length < 24)
      throw new OcmError('BAD_INPUT', 'OCM_API_TOKEN is shorter than 24 characters.', {
        hint: 'Use a long random one, e.g. `openssl rand -base64 32`, or unset it for a new token per run.',
      });
    const server = await startUiServer({
      paths: ctx.paths,
      config,
      logger,
      searchLogger: ctx.logger('search'),
      now: () => ctx.now(),
      port,
      ...(apiToken ? { apiToken } : {}),
    });
    ctx.out(
      ctx.json
        ? JSON.stringify({ url: server.url, port: server.port, api: `http://127.0.0.1:${server.port}/api/v1`, apiToken: server.apiToken })
        : `OC-Memory dashboard: ${server.url}`,
    );
    if (!ctx.json)
      ctx.err('This address opens it once, in one browser (its token is then used up); it listens on 127.0.0.1 only. Ctrl-C stops it.');
    if (options.open) {
      const { execa } = await import('execa');
      // The browser gets a local page that sends it on to the address: the token is in no process's argv.
      const { pathToFileURL } = await import('node:url');
      const [cmd, argv] = opener(pathToFileURL(await server.openerPage()).href);
      // Not waited for: without a desktop, xdg-open runs the browser itself until it is closed.
      void execa(cmd, argv, { detached: true, stdio: 'ignore', reject: false }).then((r) => {
        if (r.failed) ctx.err(`Could not open a browser (${cmd}: ${r.shortMessage}); open the address above.`);
      });
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await server.close();
    logger.log('info', 'ui.stop', {});
  },
});
