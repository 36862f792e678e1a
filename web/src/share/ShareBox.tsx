/** "Share link": encodes the editor's text into the page URL and shows the link to copy. */
import { useState } from 'react';
import { encodeScenario, shareUrl } from './codec';

export interface ShareBoxProps {
  text: string;
}

type ShareState = { status: 'idle' } | { status: 'ready'; url: string } | { status: 'error'; error: string };

export function ShareBox({ text }: ShareBoxProps) {
  const [state, setState] = useState<ShareState>({ status: 'idle' });

  const share = async () => {
    const r = await encodeScenario(text);
    if (!r.ok) {
      setState({ status: 'error', error: r.error });
      return;
    }
    const url = shareUrl(window.location.href, r.payload);
    // replaceState: no hashchange event, so the editor is not reloaded from the link it just made.
    window.history.replaceState(null, '', url);
    setState({ status: 'ready', url });
    try {
      await navigator.clipboard?.writeText(url);
    } catch {
      // No clipboard permission: the link is shown to copy by hand.
    }
  };

  return (
    <div className="share-box">
      <button type="button" onClick={() => void share()} data-testid="share-button">
        Share link
      </button>
      {state.status === 'ready' && (
        <input
          className="share-url"
          readOnly
          value={state.url}
          aria-label="Share link"
          data-testid="share-url"
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      {state.status === 'error' && (
        <span className="share-error" role="alert" data-testid="share-encode-error">
          {state.error}
        </span>
      )}
    </div>
  );
}
