import type { LinkState } from '../lib/subscription-client';

const WORDS: Record<LinkState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  closed: 'offline',
};

/** Whether live updates are flowing (the graphql-ws connection), in words beside a dot. */
export function LinkIndicator({ state }: { state: LinkState }) {
  return (
    <span class={`link-state link-${state}`} role="status" aria-label={`Live updates: ${WORDS[state]}`}>
      <span class="dot" aria-hidden="true" />
      {WORDS[state]}
    </span>
  );
}
