/**
 * A row of tabs (`role="tablist"`): one button a choice, the chosen one
 * `aria-selected` and of class `<tabClass> active`.
 */
export function TabBar({
  navClass,
  tabClass,
  testIdPrefix,
  tabs,
  chosen,
  choose,
}: {
  navClass: string;
  tabClass: string;
  /** Each button's `data-testid` is this followed by its id. */
  testIdPrefix: string;
  tabs: readonly { id: string; title: string }[];
  chosen: string;
  choose: (id: string) => void;
}) {
  return (
    <nav className={navClass} role="tablist">
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === chosen}
          data-testid={`${testIdPrefix}${t.id}`}
          className={t.id === chosen ? `${tabClass} active` : tabClass}
          onClick={() => choose(t.id)}
        >
          {t.title}
        </button>
      ))}
    </nav>
  );
}
