#!/usr/bin/env node
/**
 * ocm-run / oc-memory: the entry. An agent runs the prompt hook before every
 * prompt, so `hook prompt` first takes a fast path that loads only what
 * asking a running `ocm-run mcp` needs (scripts/prompt-hook.cts; `integrate`
 * writes that file itself as the hook's program, which spares the ESM loader
 * too); everything else — and the hook when no server answers — is the full
 * command line (scripts/cli-main.ts).
 */
import promptHook from './prompt-hook.cjs';

// Everything this process creates is the owner's alone, whatever the user's umask (README "The memory home"):
// memory files, the index, logs, locks, `stats --export`. Only the CLI sets it: lib/ also runs inside other
// programs (the OpenClaw plugin), whose umask is theirs.
process.umask(process.umask() | 0o077);

const argv = process.argv.slice(2);
const answered = argv[0] === 'hook' && argv[1] === 'prompt' && (await promptHook.answerPromptFast(argv.slice(2)));
if (!answered) {
  promptHook.enableCompileCache();
  await import('./cli-main.js');
}
