import { formatCount, formatMicrousd } from '../../lib/format';
import type { Figures } from './spend-sums';

/** The filtered totals: requests, tokens and spend over the page's range. */
export function UsageTotals({ figures, range }: { figures: Figures | undefined; range: string }) {
  const items: Array<[string, keyof Figures, (n: number) => string]> = [
    ['Requests', 'requests', formatCount],
    ['Prompt tokens', 'promptTokens', formatCount],
    ['Completion tokens', 'completionTokens', formatCount],
    ['Spend', 'amountMicrousd', formatMicrousd],
  ];
  return (
    <section class="totals-section" aria-labelledby="totals-title">
      <h2 id="totals-title">
        Totals <span class="muted">{range}</span>
      </h2>
      <dl class="totals">
        {items.map(([label, field, format]) => (
          <div key={field} class="total">
            <dt>{label}</dt>
            <dd data-total={field}>{figures ? format(figures[field]) : '…'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
