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
      <label>
        <input
          type="checkbox"
          checked={sidebar}
          onChange={(e) => d.setSidebar(e.target.checked)}
          data-testid="toggle-sidebar"
        />{' '}
        scenario
      </label>
      <label>
        <input
          type="checkbox"
          checked={large}
          onChange={(e) => d.setLarge(e.target.checked)}
          data-testid="large-type"
        />{' '}
        large type
      </label>
      <label>
        <input
          type="checkbox"
          checked={hc}
          onChange={(e) => d.setHighContrast(e.target.checked)}
          data-testid="high-contrast"
        />{' '}
        high contrast
      </label>
    </span>
  );
}
