import { fileURLToPath } from 'node:url';
import type { Runner } from '../lib/integrations/claude-code/integration.js';

/**
 * How an agent runs this OC-Memory (what `integrate` and `setup` write into
 * its config): this Node, the CLI as it was started, and the prompt hook's own
 * CommonJS entry beside it (scripts/prompt-hook.cts).
 */
export function thisRunner(): Runner {
  return { node: process.execPath, cli: process.argv[1]!, promptHook: fileURLToPath(new URL('./prompt-hook.cjs', import.meta.url)) };
}
