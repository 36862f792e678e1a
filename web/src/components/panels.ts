/**
 * Where other parts of the app plug panels into the shell.
 *
 * A module `src/views/index.ts(x)`, `src/editor/index.ts(x)` or `src/lessons/index.ts(x)` may export
 * `panels: PanelDef[]`; each becomes a tab next to "Run". Panels read the
 * run store with `useRun` from `src/store`. The glob below is resolved at
 * build time: a missing module simply contributes nothing.
 */
import type { ComponentType } from 'react';

export interface PanelDef {
  /** Stable id, used in the URL hash and as `data-testid="tab-<id>"`. */
  id: string;
  title: string;
  /** Tabs are sorted by `order` (default 100), then by title. */
  order?: number;
  component: ComponentType;
}

interface PanelModule {
  panels?: PanelDef[];
}

const modules = import.meta.glob<PanelModule>(
  [
    '../views/index.ts',
    '../views/index.tsx',
    '../editor/index.ts',
    '../editor/index.tsx',
    '../lessons/index.ts',
    '../lessons/index.tsx',
  ],
  { eager: true },
);

export function collectPanels(mods: Record<string, PanelModule> = modules): PanelDef[] {
  return Object.values(mods)
    .flatMap((m) => m.panels ?? [])
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.title.localeCompare(b.title));
}
