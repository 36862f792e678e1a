import { useRun } from '../store';
import { scenarioDoc, stringField } from '../engine/scenario';

/** The `name` of a scenario text, or "Shared scenario". */
function sharedName(text: string): string {
  return stringField(scenarioDoc(text), 'name') || 'Shared scenario';
}

/** Pick one of the shipped scenarios; shows its name and description. */
export function ScenarioPicker() {
  const scenarios = useRun((s) => s.scenarios);
  const selected = useRun((s) => s.selected);
  const selectScenario = useRun((s) => s.selectScenario);
  const running = useRun((s) => s.phase === 'running');
  const text = useRun((s) => s.text);
  const file = useRun((s) => s.file);
  const current = scenarios.find((s) => s.file === selected);
  // The text may come from a link or have been edited: the picker says so.
  const edited = current !== undefined && current.text !== text;
  const shared = current === undefined && text !== '';
  return (
    <section className="picker">
      <label htmlFor="scenario-picker">Scenario</label>
      <select
        id="scenario-picker"
        data-testid="scenario-picker"
        value={selected}
        disabled={running}
        onChange={(e) => selectScenario(e.target.value)}
      >
        {scenarios.length === 0 && <option value="">(no scenarios found in scenarios/)</option>}
        {shared && (
          <option value="" data-testid="picker-shared">
            {sharedName(text)} ({file}, from a link or a file)
          </option>
        )}
        {scenarios.map((s) => (
          <option key={s.file} value={s.file}>
            {s.name} ({s.file}){edited && s.file === selected ? ', edited' : ''}
          </option>
        ))}
      </select>
      {current && (
        <p className="picker-description" data-testid="scenario-description">
          {current.description}
        </p>
      )}
    </section>
  );
}

/** The scenario text as it will be run (editable). */
export function ScenarioSource() {
  const text = useRun((s) => s.text);
  const file = useRun((s) => s.file);
  const setText = useRun((s) => s.setText);
  const running = useRun((s) => s.phase === 'running');
  return (
    <section className="source">
      <label htmlFor="scenario-text">
        Source <code>{file}</code>
      </label>
      <textarea
        id="scenario-text"
        data-testid="scenario-text"
        spellCheck={false}
        value={text}
        readOnly={running}
        onChange={(e) => setText(e.target.value)}
      />
    </section>
  );
}
