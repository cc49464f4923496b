/**
 * The Observer and Reflector system prompts: Markdown in the package's
 * `prompts/`, overridable by a file of the same name in `<home>/prompts/`.
 * Read at run time, so a user's edit takes effect on the next tick.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../platform/package-root.js';
import { isNotFound } from '../core/errors.js';

export type PromptName = 'observer' | 'reflector';

export interface LoadedPrompt {
  text: string;
  /** Where it came from: the home's override or the bundled file. */
  path: string;
  overridden: boolean;
}

/** Drop a leading YAML frontmatter block (users may keep notes there). */
function stripFrontmatter(text: string): string {
  return text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, '');
}

export async function loadPrompt(name: PromptName, homeRoot?: string): Promise<LoadedPrompt> {
  if (homeRoot) {
    const path = join(homeRoot, 'prompts', `${name}.md`);
    try {
      const text = stripFrontmatter(await readFile(path, 'utf8')).trim();
      if (text) return { text, path, overridden: true };
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  const path = packagePath('prompts', `${name}.md`);
  return { text: stripFrontmatter(await readFile(path, 'utf8')).trim(), path, overridden: false };
}
