/**
 * What a share button made: the link, read-only and selected when focused
 * so it can be copied by hand, or why no link could be made. Used by the
 * classroom's "share this moment" and break-it's "share this find".
 */
import { useState } from 'react';

/** The link of a share button (null until made) and the error of its last attempt. */
export function useShareLink() {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Takes `momentUrl`'s answer; returns the link, or null when it is an error. */
  const made = (r: string | { error: string }): string | null => {
    if (typeof r !== 'string') {
      setError(r.error);
      return null;
    }
    setUrl(r);
    setError(null);
    return r;
  };
  return { url, error, made };
}

export function ShareLinkOutput(p: { url: string | null; error: string | null; label: string; testId: string }) {
  return (
    <>
      {p.url && (
        <input
          readOnly
          value={p.url}
          aria-label={p.label}
          data-testid={p.testId}
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      {p.error && <span className="warn">{p.error}</span>}
    </>
  );
}
