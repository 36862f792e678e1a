/**
 * Dev-only harness (served by `vite` dev at `/src/views/harness/index.html`):
 * the classroom views on SYNTHETIC traces, same parameters as the
 * Classroom tab's `?synthetic=` mode, e.g. `?synthetic=ws&threads=16&events=1000000`.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../classroom.css';
import { SyntheticClassroom, syntheticModes } from '../synthetic';
import { DisplayToggles } from '../../components/DisplayToggles';

const q = new URLSearchParams(window.location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DisplayToggles />
    <SyntheticClassroom modes={syntheticModes(q) ?? ['early']} q={q} />
  </StrictMode>,
);
