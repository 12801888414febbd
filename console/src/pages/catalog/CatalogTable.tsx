import { DataTable } from '../../components/DataTable';
import { StatusBadge } from '../../components/StatusBadge';
import { formatCount } from '../../lib/format';
import type { CatalogEntry } from './catalog-entry';
import { PriceTable } from './PriceTable';

/**
 * The models the key may use: endpoints with their mode (`native`: the
 * upstream speaks that path; `stateless_bridge`: the gateway translates),
 * limits, what they take, and prices.
 */
export function CatalogTable({ entries }: { entries: CatalogEntry[] }) {
  if (entries.length === 0) return <p class="muted">No models match.</p>;
  return (
    <DataTable caption="Catalog" captionHidden columns={['Model', 'Endpoints', 'Limits', 'Takes', 'Prices']}>
      {entries.map((m) => (
        <tr key={m.id} data-model-id={m.id}>
          <td>
            <strong>{m.id}</strong>
            <div class="muted small">
              {m.family} · {m.ownedBy} · {m.routing.routes} route{m.routing.routes === 1 ? '' : 's'}
            </div>
          </td>
          <td>
            <ul class="plain">
              {m.supportedEndpoints.map((e) => (
                <li key={e.path}>
                  <code class="small">{e.path}</code> <StatusBadge text={e.mode} tone={e.mode === 'native' ? 'good' : 'neutral'} />
                </li>
              ))}
            </ul>
          </td>
          <td class="small nowrap">
            {m.contextWindow > 0 && <div>context {formatCount(m.contextWindow)}</div>}
            {m.maxOutputTokens !== null && <div>output {formatCount(m.maxOutputTokens)}</div>}
          </td>
          <td class="small">{features(m).join(', ') || '—'}</td>
          <td>
            <PriceTable lanes={m.pricing.lanes} currency={m.pricing.currency} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** What a model takes, in words: its input modalities and optional parameters. */
function features(m: CatalogEntry): string[] {
  const out = [...m.modalities.input];
  if (m.parameters.tools) out.push('tools');
  if (m.parameters.responseFormat) out.push('structured output');
  if (m.parameters.streaming) out.push('streaming');
  if (m.parameters.reasoning) out.push('reasoning');
  return [...new Set(out)];
}
