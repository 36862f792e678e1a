import { useEffect, useMemo, useState } from 'react';
import { EngineInfo } from './components/EngineInfo';
import { collectPanels, type PanelDef } from './components/panels';
import { RunControls } from './components/RunControls';
import { RunPanel } from './components/RunPanel';
import { ScenarioPicker, ScenarioSource } from './components/ScenarioPicker';
import { runStore } from './store';
import { sweepPanel } from './sweep';

const RUN_PANEL: PanelDef = { id: 'run', title: 'Run', order: 0, component: RunPanel };

function tabFromHash(panels: PanelDef[]): string {
  const id = window.location.hash.match(/^#tab=([\w-]+)/)?.[1];
  return panels.some((p) => p.id === id) ? (id as string) : RUN_PANEL.id;
}

export function App() {
  const panels = useMemo(() => [RUN_PANEL, ...collectPanels(), sweepPanel], []);
  const [tab, setTab] = useState(() => tabFromHash(panels));

  useEffect(() => {
    void runStore.getState().startEngine();
  }, []);

  const select = (id: string) => {
    setTab(id);
    window.history.replaceState(null, '', `#tab=${id}`);
  };
  const Active = (panels.find((p) => p.id === tab) ?? RUN_PANEL).component;

  return (
    <div className="app">
      <header className="app-header">
        <h1>P-SMR Lab</h1>
        <EngineInfo />
      </header>
      <aside className="sidebar">
        <ScenarioPicker />
        <RunControls />
        <ScenarioSource />
      </aside>
      <main className="main">
        <nav className="tabs" role="tablist">
          {panels.map((p) => (
            <button
              key={p.id}
              type="button"
              role="tab"
              aria-selected={p.id === tab}
              data-testid={`tab-${p.id}`}
              className={p.id === tab ? 'tab active' : 'tab'}
              onClick={() => select(p.id)}
            >
              {p.title}
            </button>
          ))}
        </nav>
        <section className="panel" role="tabpanel">
          <Active />
        </section>
      </main>
    </div>
  );
}
