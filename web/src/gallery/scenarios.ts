/**
 * The shipped scenarios (`scenarios/*.json`), bundled as raw text so the
 * editor shows each file exactly as committed (comments of layout, key
 * order). The schema file in the same folder is not a scenario.
 */

import { readScenario, scenarioTags, stringField } from '../engine/scenario';

export interface GalleryEntry {
  /** File name, e.g. `kv-sharded.json`. */
  file: string;
  /** The scenario's `name`, or the file name when absent. */
  name: string;
  description: string;
  tags: string[];
  text: string;
  /** Set when the file is not valid JSON (it is still listed, to be opened and fixed). */
  error?: string;
}

const SCHEMA_FILE = 'scenario.schema.json';

/** Build gallery entries from `{path: text}`, sorted by file name. */
export function galleryEntries(files: Record<string, string>): GalleryEntry[] {
  const out: GalleryEntry[] = [];
  for (const [path, text] of Object.entries(files)) {
    const file = path.split('/').pop() ?? path;
    if (file === SCHEMA_FILE) continue;
    out.push(entryOf(file, text));
  }
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

function entryOf(file: string, text: string): GalleryEntry {
  const read = readScenario(text);
  if (!read.ok) return { file, name: file, description: '', tags: [], text, error: read.error };
  const o = read.doc;
  return {
    file,
    name: stringField(o, 'name') || file,
    description: stringField(o, 'description') ?? '',
    tags: scenarioTags(o),
    text,
  };
}

const raw = import.meta.glob<string>('../../../scenarios/*.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** Every shipped scenario. */
export const shippedScenarios: GalleryEntry[] = galleryEntries(raw);
