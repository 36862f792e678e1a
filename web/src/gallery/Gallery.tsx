/** The gallery of shipped scenarios: name, description, tags; a click opens one in the editor. */
import type { GalleryEntry } from './scenarios';

export interface GalleryProps {
  entries: GalleryEntry[];
  /** File name of the scenario now in the editor, if it came from the gallery. */
  current?: string | null;
  onOpen: (entry: GalleryEntry) => void;
}

export function Gallery({ entries, current, onOpen }: GalleryProps) {
  if (entries.length === 0) {
    return <p className="gallery-empty">No shipped scenarios in this build.</p>;
  }
  return (
    <ul className="gallery" aria-label="Shipped scenarios">
      {entries.map((e) => (
        <li key={e.file} className={e.file === current ? 'gallery-item current' : 'gallery-item'}>
          <button type="button" onClick={() => onOpen(e)} data-testid={`gallery-${e.file}`} title={`Open ${e.file}`}>
            <span className="gallery-name">{e.name}</span>
            <span className="gallery-file">{e.file}</span>
          </button>
          {e.description && <p className="gallery-description">{e.description}</p>}
          {e.tags.length > 0 && (
            <span className="gallery-tags">
              {e.tags.map((t) => (
                <span key={t} className="tag">
                  {t}
                </span>
              ))}
            </span>
          )}
          {e.error && <p className="gallery-error">Not valid JSON: {e.error}</p>}
        </li>
      ))}
    </ul>
  );
}
