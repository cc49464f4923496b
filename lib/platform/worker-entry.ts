/**
 * The entry of a worker thread whose module sits beside the caller's. From
 * the compiled package: `<name>.js`. From the TypeScript source (tests, tsx),
 * tsx's loader is not active in worker threads (privatenumber/tsx#354): the
 * worker registers it, then imports the .ts module.
 */
export function workerEntry(callerUrl: string, name: string): [string | URL, { eval?: boolean }] {
  if (!callerUrl.endsWith('.ts')) return [new URL(`./${name}.js`, callerUrl), {}];
  const source = new URL(`./${name}.ts`, callerUrl).href;
  return [`const { register } = await import('tsx/esm/api'); register(); await import(${JSON.stringify(source)});`, { eval: true }];
}
