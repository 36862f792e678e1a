/**
 * The harness page, not part of the app: the classroom views on SYNTHETIC
 * traces for load tests and frame benchmarks, e.g.
 * `/src/views/harness/index.html?synthetic=ws&threads=16&events=1000000`.
 * Served by `vite` dev; built only with `PSMR_HARNESS=1` (vite.config.ts),
 * as scripts/test.sh does for the e2e tests.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../components/shell.css';
import '../classroom.css';
import { SyntheticClassroom, syntheticModes } from './synthetic';
import { DisplayToggles } from '../../components/DisplayToggles';

const q = new URLSearchParams(window.location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* The app's layout around the Classroom tab (shell.css), so the views get the same bounded space. */}
    <div className="app no-sidebar on-classroom">
      <header className="app-header">
        <DisplayToggles />
      </header>
      <main className="main">
        <section className="panel">
          <SyntheticClassroom modes={syntheticModes(q) ?? ['early']} q={q} />
        </section>
      </main>
    </div>
  </StrictMode>,
);
