/**
 * Display settings in the header: presentation layout, large type, high
 * contrast, and the scenario sidebar. They apply to the whole app (the
 * root element's classes), canvas and charts included.
 */
import { displayStore, useDisplay } from '../views/display';

export function DisplayToggles() {
  const large = useDisplay((s) => s.large);
  const hc = useDisplay((s) => s.highContrast);
  const present = useDisplay((s) => s.present);
  const sidebar = useDisplay((s) => s.sidebar);
  const d = displayStore.getState();
  return (
    <span className="display-toggles">
      <button
        type="button"
        className={present ? 'toggle on' : 'toggle'}
        aria-pressed={present}
        onClick={() => d.setPresent(!present)}
        data-testid="present"
        title="Presentation layout for a projector: fills the screen, large type, scenario sidebar hidden"
      >
        {present ? '✕ leave presentation' : '▣ present'}
      </button>
      <Toggle label="scenario" on={sidebar} set={d.setSidebar} testId="toggle-sidebar" />
      <Toggle label="large type" on={large} set={d.setLarge} testId="large-type" />
      <Toggle label="high contrast" on={hc} set={d.setHighContrast} testId="high-contrast" />
    </span>
  );
}

/** One labelled checkbox of the header: checked while the setting is on. */
function Toggle({ label, on, set, testId }: { label: string; on: boolean; set: (v: boolean) => void; testId: string }) {
  return (
    <label>
      <input type="checkbox" checked={on} onChange={(e) => set(e.target.checked)} data-testid={testId} /> {label}
    </label>
  );
}
