/** Opening a scenario from disk and saving it back (download). */

import { scenarioDoc, stringField } from '../engine/scenario';

/** Largest file the editor opens, in bytes (1 MiB); scenarios are a few KiB. */
export const MAX_FILE_BYTES = 1024 * 1024;

export type OpenResult = { ok: true; file: string; text: string } | { ok: false; error: string };

/** Read a picked file as UTF-8 text, refusing an oversized one before reading it. */
export async function readScenarioFile(f: File): Promise<OpenResult> {
  if (f.size > MAX_FILE_BYTES) {
    return { ok: false, error: `${f.name} is ${f.size} bytes; the editor opens files up to ${MAX_FILE_BYTES} bytes.` };
  }
  try {
    const bytes = new Uint8Array(await f.arrayBuffer());
    return { ok: true, file: f.name, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, error: `${f.name} is not UTF-8 text.` };
  }
}

/** A file name for saving: the current one, else one made from the scenario's name. */
export function saveName(file: string, text: string): string {
  if (/\.json$/i.test(file) && file !== 'scenario.json') return file;
  // Not JSON yet, or no name: keep the default name.
  const name = stringField(scenarioDoc(text), 'name');
  if (name !== undefined) {
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60);
    if (slug) return `${slug}.json`;
  }
  return file || 'scenario.json';
}

/** Offer `text` as a download named `file`. */
export function downloadText(file: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
