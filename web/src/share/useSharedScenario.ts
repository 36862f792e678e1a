/**
 * Open a scenario shared by URL: reads `#scenario=...` at start and on every
 * hash change, decodes it safely, and hands the text to `onLoad`. A damaged
 * or oversized link becomes an error message for the page, never a throw.
 */
import { useEffect, useState } from 'react';
import { decodeScenario, payloadFromHash } from './codec';

export type SharedState =
  { status: 'none' } | { status: 'loading' } | { status: 'loaded' } | { status: 'error'; error: string };

export function useSharedScenario(onLoad: (text: string) => void): [SharedState, () => void] {
  const [state, setState] = useState<SharedState>(() =>
    payloadFromHash(window.location.hash) === null ? { status: 'none' } : { status: 'loading' },
  );

  useEffect(() => {
    let serial = 0;
    const read = () => {
      const payload = payloadFromHash(window.location.hash);
      if (payload === null) return;
      const mine = ++serial;
      setState({ status: 'loading' });
      void decodeScenario(payload).then((r) => {
        if (mine !== serial) return; // a newer hash won
        if (r.ok) {
          onLoad(r.text);
          setState({ status: 'loaded' });
        } else {
          setState({ status: 'error', error: r.error });
        }
      });
    };
    read();
    window.addEventListener('hashchange', read);
    return () => {
      serial++;
      window.removeEventListener('hashchange', read);
    };
    // onLoad is read once per hash; the caller's identity changes must not re-read the link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return [state, () => setState({ status: 'none' })];
}
