/**
 * The scenario files shipped in `scenarios/*.json`, bundled as raw text so
 * the engine sees exactly the file (and its diagnostics point at its real
 * lines).
 */

import { readScenario, stringField } from '../engine/scenario';

export interface ScenarioEntry {
  /** File name, e.g. `quickstart.json` (what diagnostics call `file`). */
  file: string;
  name: string;
  description: string;
  text: string;
}

/** The scenario selected when the app opens. */
export const DEFAULT_SCENARIO = 'quickstart.json';

const raw = import.meta.glob<string>(['../../../scenarios/*.json', '!../../../scenarios/*.schema.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Name and description of a scenario text, tolerating broken JSON. */
export function describe(file: string, text: string): ScenarioEntry {
  const read = readScenario(text);
  if (!read.ok) return { file, name: file.replace(/\.json$/, ''), description: '(not valid JSON)', text };
  return {
    file,
    name: stringField(read.doc, 'name') || file.replace(/\.json$/, ''),
    description: stringField(read.doc, 'description') ?? '',
    text,
  };
}

/** Entries sorted with the default scenario first, then by file name. */
export function listScenarios(files: Record<string, string> = raw): ScenarioEntry[] {
  return Object.entries(files)
    .map(([path, text]) => describe(path.split('/').pop() ?? path, text))
    .sort((a, b) => {
      if (a.file === DEFAULT_SCENARIO) return -1;
      if (b.file === DEFAULT_SCENARIO) return 1;
      return a.file.localeCompare(b.file);
    });
}
