import { useState } from 'preact/hooks';
import { CursorPager } from '../../components/CursorPager';
import { DataTable } from '../../components/DataTable';
import { ProblemNotice } from '../../components/ProblemNotice';
import { formatMicrousd, formatTime } from '../../lib/format';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { LEDGER_PAGE_SIZE, LEDGER_QUERY, type LedgerAnswer, type LedgerEntry } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';
import { RefundDialog } from './RefundDialog';

/** An account's ledger entries, newest first, page by page (the ledger pages backwards with `before`); a settled charge (or one charged inside a lease) can be refunded. */
export function LedgerTable({ admin, accountId }: { admin: AdminSession; accountId: string }) {
  const pages = useCursorPages();
  const ledger = useGraphqlQuery<LedgerAnswer>(admin.endpoint, LEDGER_QUERY, { accountId, first: LEDGER_PAGE_SIZE, before: pages.after }, admin.revision);
  const [refunding, setRefunding] = useState<LedgerEntry>();
  const page = ledger.data?.ledger;
  return (
    <section aria-label="Ledger">
      <ProblemNotice problem={ledger.problem} />
      {page && page.entries.length === 0 && <p class="muted">No ledger entries.</p>}
      {page && page.entries.length > 0 && (
        <DataTable caption="Ledger entries" captionHidden columns={['Time', 'Kind', { label: 'Wallet', number: true }, { label: 'Charged', number: true }, 'Request / key', 'Note', { label: 'Actions', labelHidden: true }]}>
          {page.entries.map((e) => (
            <tr key={e.id} data-entry-id={e.id}>
              <td class="nowrap">{formatTime(e.createdAt)}</td>
              <td>{e.kind.replace(/_/g, ' ')}</td>
              <td class="number">{formatMicrousd(e.amountMicrousd)}</td>
              <td class="number">{formatMicrousd(e.chargedMicrousd)}</td>
              <td class="small">
                {e.requestId && <code>{e.requestId}</code>} {e.keyId && <code class="muted">{e.keyId}</code>}
              </td>
              <td>{e.note}</td>
              <td class="actions-cell">
                {(e.kind === 'settle' || e.kind === 'charge') && e.chargedMicrousd > 0 && e.requestId && (
                  <button type="button" class="link-button" aria-label={`Refund request ${e.requestId}`} onClick={() => setRefunding(e)}>
                    Refund…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <CursorPager pages={pages} pageInfo={page && { endCursor: page.nextBefore, hasNextPage: page.hasMore }} label="Ledger" />
      {refunding?.requestId && <RefundDialog admin={admin} requestId={refunding.requestId} charged={refunding.chargedMicrousd} onClose={() => setRefunding(undefined)} />}
    </section>
  );
}
