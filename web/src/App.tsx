import { useEffect, useMemo, useState } from 'react';
import { DisplayToggles } from './components/DisplayToggles';
import { EngineInfo } from './components/EngineInfo';
import { DEFAULT_TAB, navStore, useNav } from './components/nav';
import { openLink, useLink } from './components/links';
import { collectPanels, type PanelDef } from './components/panels';
import { RunControls } from './components/RunControls';
import { lazyPanel } from './components/lazyPanel';
import { ScenarioPicker, ScenarioSource } from './components/ScenarioPicker';
import { TabBar } from './components/TabBar';
import { useDisplay } from './views/display';

// The Run and Sweep tabs draw with d3: their code is fetched when they are first opened.
const RUN_PANEL: PanelDef = {
  id: 'run',
  title: 'Run',
  order: 0,
  component: lazyPanel(() => import('./components/RunPanel').then((m) => m.RunPanel), 'the run results'),
};
const SWEEP_PANEL: PanelDef = {
  id: 'sweep',
  title: 'Sweep',
  order: 50,
  component: lazyPanel(() => import('./sweep/SweepPanel').then((m) => m.SweepPanel), 'the sweep'),
};

/**
 * The shell: one header (title, tabs, display settings, engine status), the
 * scenario sidebar (collapsible; hidden while presenting; on the Lessons tab
 * folded to a strip that opens it, so its Run button does not compete with
 * the lesson cards), and the active tab, which fills the rest of the screen
 * and scrolls on its own.
 */
export function App() {
  const panels = useMemo(
    () => [RUN_PANEL, ...collectPanels(), SWEEP_PANEL].sort((a, b) => (a.order ?? 100) - (b.order ?? 100)),
    [],
  );
  const asked = useNav((s) => s.tab);
  const tab = panels.some((p) => p.id === asked) ? asked : DEFAULT_TAB;
  const large = useDisplay((s) => s.large);
  const hc = useDisplay((s) => s.highContrast);
  const present = useDisplay((s) => s.present);
  const sidebar = useDisplay((s) => s.sidebar);
  // Opened from its strip on the Lessons tab (for this visit; the other tabs show it whenever it is on).
  const [onLessons, setOnLessons] = useState(false);

  // The engine is not started here: the first screen does not need it (store/index.ts says what starts it).
  useEffect(() => {
    // A shared scenario (and moment) in the URL opens in whatever tab it names.
    void openLink();
    const onHash = () => void openLink();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const link = useLink((s) => s.status);

  // Large type scales every rem of the app, charts and canvas included.
  useEffect(() => {
    document.documentElement.classList.toggle('large', large);
    document.documentElement.classList.toggle('hc', hc);
  }, [large, hc]);

  const select = (id: string) => navStore.getState().setTab(id);
  const Active = (panels.find((p) => p.id === tab) ?? RUN_PANEL).component;
  // The Author tab has its own editor and run button: the sidebar would show the JSON twice.
  const folded = sidebar && tab === 'lessons' && !onLessons;
  const showSidebar = sidebar && tab !== 'author' && !folded;
  const cls = [
    'app',
    present && 'present',
    large && 'large',
    hc && 'hc',
    !showSidebar && !folded && 'no-sidebar',
    folded && 'sidebar-folded',
    `on-${tab}`,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={cls} data-testid="app">
      <header className="app-header">
        <h1>P-SMR Lab</h1>
        <TabBar navClass="tabs" tabClass="tab" testIdPrefix="tab-" tabs={panels} chosen={tab} choose={select} />
        <DisplayToggles />
        <EngineInfo />
      </header>
      {folded && (
        <aside className="sidebar-strip" data-testid="sidebar-folded">
          <button
            type="button"
            data-testid="sidebar-unfold"
            title="Open the scenario sidebar: pick a scenario, set its threads and run it"
            onClick={() => setOnLessons(true)}
          >
            scenario and run ›
          </button>
        </aside>
      )}
      {showSidebar && (
        <aside className="sidebar" data-testid="sidebar">
          {tab === 'lessons' && (
            <button
              type="button"
              className="sidebar-fold"
              data-testid="sidebar-fold"
              title="Fold the scenario sidebar to a strip while choosing a lesson"
              onClick={() => setOnLessons(false)}
            >
              ‹ fold
            </button>
          )}
          <ScenarioPicker />
          <RunControls />
          <ScenarioSource />
        </aside>
      )}
      <main className="main">
        {link.state === 'error' && (
          <div className="share-link-error" role="alert" data-testid="link-error">
            <strong>Could not open the shared link.</strong> {link.error}
          </div>
        )}
        {link.state === 'loading' && <p className="muted">Opening the shared scenario…</p>}
        <section className="panel" role="tabpanel">
          <Active />
        </section>
      </main>
    </div>
  );
}
