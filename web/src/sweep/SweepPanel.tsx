import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { BenchOptions } from '../engine/protocol';
import { ExportButtons, fileSlug } from '../export';
import { packageFor } from '../engine/packages';
import { engineHost, readyEngine, useRun, warmEngine } from '../store';
import {
  baselineOf,
  defaultThreads,
  MAX_REPETITIONS,
  parseShares,
  scenarioShape,
  seriesOf,
  sharesOf,
  sweepCsv,
  threadChoices,
  virtualChoices,
} from './model';
import { maxVirtualCores } from '../engine/virtualCores';
import { createSweepStore, type SweepState } from './store';
import { SweepChart } from './SweepChart';
import { SweepTable } from './SweepTable';
import './sweep.css';

/**
 * The one sweep store, on the app's engine bridge. The Sweep tab starts the
 * engine when it opens (its limits set the thread choices); a sweep waits
 * for it to be up.
 */
export const sweepStore = createSweepStore({
  bench: async (text, options, onProgress) =>
    (await readyEngine(packageFor(text, options?.schedulers ?? []))).bench(text, options, onProgress),
  cancel: () => engineHost.cancel(),
});

export function useSweep<T>(selector: (s: SweepState) => T): T {
  return useStore(sweepStore, selector);
}

const PHASE_TEXT = {
  idle: 'pick executors and threads, then run',
  running: 'sweeping…',
  done: 'done',
  cancelled: 'cancelled (the points measured so far are shown)',
  refused: 'the engine refused the sweep: see the problems below',
  failed: 'engine error',
} as const;

const pct = (w: number) => `${+(w * 100).toFixed(2)}%`;

/**
 * Sweep: throughput against threads for the current scenario's executors,
 * on the machine at hand, with the numbers and exports.
 */
export function SweepPanel() {
  const text = useRun((s) => s.text);
  const file = useRun((s) => s.file);
  const engine = useRun((s) => s.engine);
  const runBusy = useRun((s) => s.phase === 'running');
  const st = useSweep((s) => s);
  const svgRef = useRef<SVGSVGElement>(null);
  const virtualSvgRef = useRef<SVGSVGElement>(null);
  const [shownShare, setShownShare] = useState<number | null>(null);
  // The Sweep tab needs the engine: start it (a no-op once it is up).
  useEffect(() => warmEngine(), []);

  const shape = useMemo(() => scenarioShape(text), [text]);
  const info = engine.state === 'ready' ? engine.info : null;
  const maxThreads = info ? info.limits.max_threads : 8;
  const cores = info?.hardwareConcurrency ?? (typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0);

  if ('error' in shape) {
    return (
      <div className="sweep-panel" data-testid="sweep-panel">
        <p className="bad">{shape.error}: fix the scenario source to sweep it.</p>
      </div>
    );
  }

  const picked =
    st.executors && st.executors.file === file
      ? shape.executors.filter((e) => st.executors?.labels.includes(e.label)).map((e) => e.label)
      : shape.executors.map((e) => e.label);
  const threads = (st.threads ?? defaultThreads(maxThreads)).filter((t) => t <= maxThreads);
  // The model's axis: as many virtual cores as the engine's pool hosts (one pool thread each).
  const maxVirtual = info?.poolThreads != null ? maxVirtualCores(info.poolThreads, info.limits) : 0;
  const vcores = st.virtualCores.filter((n) => n <= maxVirtual);
  const shares = parseShares(st.sharesText);
  const requests = st.requestsText.trim() === '' ? undefined : Number(st.requestsText);
  const requestsBad = requests !== undefined && (!Number.isInteger(requests) || requests < 1);
  const sharesCount = 'shares' in shares ? Math.max(1, shares.shares.length) : 1;
  const runsPerRep = threads.length > 0 ? sharesCount * (1 + threads.length * picked.length) : 0;
  const virtualRuns = vcores.length > 0 ? sharesCount * (1 + vcores.length * picked.length) : 0;
  const running = st.phase === 'running';
  const canRun =
    !!info &&
    !running &&
    !runBusy &&
    picked.length > 0 &&
    threads.length + vcores.length > 0 &&
    'shares' in shares &&
    !requestsBad;

  const toggle = (list: readonly string[], item: string) =>
    list.includes(item) ? list.filter((l) => l !== item) : [...list, item];
  const run = () => {
    if (!('shares' in shares)) return;
    const options: BenchOptions = { file, threads, schedulers: picked };
    if (shares.shares.length > 0) options.writes = shares.shares;
    if (requests !== undefined) options.requests = requests;
    setShownShare(null);
    void st.start(text, options, st.plan, vcores);
  };

  const report = st.report;
  const virtualReport = st.virtualReport;
  const shown = report ?? virtualReport;
  const reportShares = shown ? sharesOf(shown) : [];
  const share = shownShare !== null && reportShares.includes(shownShare) ? shownShare : reportShares[0];
  const series = report && share !== undefined ? seriesOf(report, share) : [];
  const baseline = report && share !== undefined ? baselineOf(report, share) : undefined;
  const virtualSeries = virtualReport && share !== undefined ? seriesOf(virtualReport, share) : [];
  const virtualBaseline = virtualReport && share !== undefined ? baselineOf(virtualReport, share) : undefined;
  const basename = `sweep-${fileSlug(file.replace(/\.json$/, ''))}`;
  const reportCores = shown?.cores ?? cores;

  return (
    <div className="sweep-panel" data-testid="sweep-panel">
      <p className="sweep-machine" data-testid="sweep-machine" data-cores={cores}>
        This machine: <strong>navigator.hardwareConcurrency = {cores}</strong> logical cores
        {info && (
          <>
            {' '}
            · engine pool {info.poolThreads} threads · runs up to {maxThreads} worker threads
          </>
        )}
        . A point with more worker threads + 1 (the delivering thread) than cores is <em>oversubscribed</em>: its
        threads time-share the cores, so it measures the machine more than the scheduler. Blocking hand-offs between
        threads cost about 5× more in the browser's WebAssembly than natively, so barrier-heavy executors look worse
        here than in the CLI's <code>psmr bench</code>.
      </p>

      <fieldset className="sweep-choice" disabled={running}>
        <legend>Executors of {shape.name}</legend>
        {shape.executors.length === 0 && <span className="muted">this scenario has no parallel executor</span>}
        {shape.executors.map((e) => (
          <label key={e.label} className="chip">
            <input
              type="checkbox"
              data-testid={`sweep-executor-${e.label}`}
              checked={picked.includes(e.label)}
              onChange={() => st.pickExecutors({ file, labels: toggle(picked, e.label) })}
            />
            {e.label}
            {e.label !== e.id && <span className="muted"> ({e.id})</span>}
          </label>
        ))}
        <span className="muted"> · sequential always runs once per write share, as the baseline</span>
      </fieldset>

      <fieldset className="sweep-choice" disabled={running}>
        <legend>Worker threads</legend>
        {threadChoices(maxThreads).map((t) => (
          <label key={t} className={t + 1 > cores ? 'chip over' : 'chip'} title={t + 1 > cores ? 'oversubscribed' : ''}>
            <input
              type="checkbox"
              data-testid={`sweep-thread-${t}`}
              checked={threads.includes(t)}
              onChange={() => st.pickThreads(threads.includes(t) ? threads.filter((x) => x !== t) : [...threads, t])}
            />
            {t}
          </label>
        ))}
      </fieldset>

      <fieldset className="sweep-choice sweep-virtual" disabled={running} data-testid="sweep-virtual-axis">
        <legend>Virtual cores (model)</legend>
        {virtualChoices().map((n) => (
          <label
            key={n}
            className="chip virtual"
            title={
              n > maxVirtual
                ? `This engine hosts at most ${maxVirtual} virtual cores: each is one of its pool threads`
                : `${n} simulated cores, one worker each, in virtual time: a model's numbers`
            }
          >
            <input
              type="checkbox"
              data-testid={`sweep-vcores-${n}`}
              disabled={n > maxVirtual}
              checked={vcores.includes(n)}
              onChange={() => st.pickVirtualCores(vcores.includes(n) ? vcores.filter((x) => x !== n) : [...vcores, n])}
            />
            {n}
          </label>
        ))}
        <span className="muted">
          {' '}
          · the same scheduler code on simulated cores under the reference cost table: deterministic, one run per point,
          drawn in a chart of its own and never with the measured points
        </span>
      </fieldset>

      <fieldset className="sweep-choice" disabled={running}>
        <legend>Workload</legend>
        <label>
          write shares{' '}
          <input
            data-testid="sweep-writes"
            value={st.sharesText}
            disabled={shape.writes === null}
            placeholder={shape.writes === null ? 'explicit class mix' : `${shape.writes} (scenario's)`}
            onChange={(e) => st.setSharesText(e.target.value)}
            size={16}
          />
        </label>{' '}
        <label>
          requests per run{' '}
          <input
            data-testid="sweep-requests"
            inputMode="numeric"
            value={st.requestsText}
            placeholder={shape.requests === null ? "scenario's" : `${shape.requests} (scenario's)`}
            onChange={(e) => st.setRequestsText(e.target.value)}
            size={10}
          />
        </label>
        {'error' in shares && <span className="bad"> {shares.error}</span>}
        {requestsBad && <span className="bad"> requests: a whole number of at least 1</span>}
        {shape.writes === null && <span className="muted"> (this scenario fixes its class mix)</span>}
      </fieldset>

      <fieldset className="sweep-choice" disabled={running}>
        <legend>Measurement</legend>
        <label title="A first sweep whose numbers are dropped: the first runs of a page pay for compiling the engine and waking the cores">
          <input
            type="checkbox"
            data-testid="sweep-warmup"
            checked={st.plan.warmup}
            onChange={(e) => st.setPlan({ ...st.plan, warmup: e.target.checked })}
          />{' '}
          warm-up sweep first
        </label>{' '}
        <label>
          repetitions{' '}
          <input
            type="number"
            data-testid="sweep-repetitions"
            min={1}
            max={MAX_REPETITIONS}
            value={st.plan.repetitions}
            onChange={(e) =>
              st.setPlan({
                ...st.plan,
                repetitions: Math.min(MAX_REPETITIONS, Math.max(1, Math.floor(Number(e.target.value) || 1))),
              })
            }
            size={3}
          />
        </label>
        <span className="muted">
          {' '}
          · each point is the median repetition; its bar spans the least to the most measured
        </span>
        {/* Virtual cores (a model's numbers, labelled so) join the sweep here, as one more axis of BenchOptions. */}
      </fieldset>

      <div className="controls sweep-controls">
        <button type="button" data-testid="sweep-run" disabled={!canRun} onClick={run}>
          Run sweep
        </button>
        <button type="button" data-testid="sweep-cancel" disabled={!running} onClick={() => void st.cancel()}>
          Cancel
        </button>
        <span className="phase" data-testid="sweep-phase" data-phase={st.phase}>
          {PHASE_TEXT[st.phase]}
          {running && st.repetition && (
            <span data-testid="sweep-repetition">
              {' '}
              {st.repetition.k === 0 ? 'warm-up' : `repetition ${st.repetition.k} of ${st.repetition.n}`}:
            </span>
          )}
          {running && st.sweepingVirtual && <span data-testid="sweep-repetition"> virtual cores (model):</span>}
          {running && st.progress && (
            <>
              {' '}
              {st.progress.scheduler} × {st.progress.threads}: {st.progress.executed.toLocaleString()}/
              {st.progress.requests.toLocaleString()} executed · {(st.elapsedMs / 1000).toFixed(1)} s
            </>
          )}
          {!running && runBusy && ' (a scenario run is in progress)'}
        </span>
        <span className="muted">
          {runsPerRep} runs per repetition{requests !== undefined ? ` of ${requests.toLocaleString()} requests` : ''},{' '}
          {runsPerRep > 0 ? st.plan.repetitions + (st.plan.warmup ? 1 : 0) : 0} sweeps
          {virtualRuns > 0 && `, then ${virtualRuns} virtual runs (once: a model's runs repeat exactly)`}
        </span>
      </div>

      {st.error && (
        <p className="bad" role="alert">
          {st.error}
        </p>
      )}
      {st.diagnostics.length > 0 && (
        <ul className="problems">
          {st.diagnostics.map((d, i) => (
            <li key={i} className="bad" data-testid="sweep-diagnostic">
              {d.file}:{d.line}:{d.col}: {d.path}: {d.message}
            </li>
          ))}
        </ul>
      )}

      {shown && (
        <div className="sweep-toolbar">
          {reportShares.length > 1 && (
            <label>
              chart at write share{' '}
              <select data-testid="sweep-share" value={share} onChange={(e) => setShownShare(Number(e.target.value))}>
                {reportShares.map((w) => (
                  <option key={w} value={w}>
                    {pct(w)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {report && (
            <ExportButtons
              svg={svgRef}
              csv={() => sweepCsv(report, virtualReport)}
              basename={basename}
              title={`${report.scenario}: throughput against threads`}
              testIdPrefix="sweep-export"
            />
          )}
        </div>
      )}
      {report && (
        <>
          <SweepChart
            series={series}
            baseline={baseline}
            cores={reportCores}
            svgRef={svgRef}
            title={report.scenario}
            subtitle={`writes ${pct(share ?? 0)} · median of ${report.repetitions} repetition${report.repetitions === 1 ? '' : 's'}, bars: least to most · ${reportCores} cores (navigator.hardwareConcurrency) · P-SMR Lab`}
          />
          <SweepTable report={report} />
        </>
      )}
      {virtualReport && (
        <section className="sweep-virtual-panel" data-testid="sweep-virtual">
          <h3>Virtual cores (model): not measured on this machine</h3>
          <p className="muted">
            Each point runs the same scheduler code on N simulated cores, one worker per core, one thread at a time in
            virtual time under the reference cost table. Its numbers are a model's: the same on every machine and every
            run (so one run per point, no spread), and never drawn with the measured points above.
          </p>
          <div className="sweep-toolbar">
            <ExportButtons
              svg={virtualSvgRef}
              csv={() => sweepCsv(virtualReport)}
              basename={`${basename}-virtual`}
              title={`${virtualReport.scenario}: throughput against virtual cores (model)`}
              testIdPrefix="sweep-virtual-export"
            />
          </div>
          <SweepChart
            virtual
            series={virtualSeries}
            baseline={virtualBaseline}
            cores={reportCores}
            svgRef={virtualSvgRef}
            title={`${virtualReport.scenario} · virtual (model)`}
            subtitle={`writes ${pct(share ?? 0)} · virtual cores, reference cost table · a model's numbers, not measured · P-SMR Lab`}
          />
          <SweepTable report={virtualReport} virtual />
        </section>
      )}
    </div>
  );
}
