import { DataTable } from '../../components/DataTable';
import { CursorPager } from '../../components/CursorPager';
import { ProblemNotice } from '../../components/ProblemNotice';
import { formatMicrousd, formatTime } from '../../lib/format';
import { ADMIN_GRAPHQL_PATH } from '../../lib/graphql-request';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { LEDGER_PAGE_SIZE, LEDGER_QUERY, type LedgerAnswer } from './admin-operations';

/** An account's ledger entries, newest first, page by page (the ledger pages backwards with `before`). */
export function LedgerTable({ adminToken, accountId }: { adminToken: string; accountId: string }) {
  const pages = useCursorPages();
  const ledger = useGraphqlQuery<LedgerAnswer>({ path: ADMIN_GRAPHQL_PATH, secret: adminToken }, LEDGER_QUERY, { accountId, first: LEDGER_PAGE_SIZE, before: pages.after });
  const page = ledger.data?.ledger;
  return (
    <section aria-label="Ledger">
      <ProblemNotice problem={ledger.problem} />
      {page && page.entries.length === 0 && <p class="muted">No ledger entries.</p>}
      {page && page.entries.length > 0 && (
        <DataTable caption="Ledger entries" columns={['Time', 'Kind', { label: 'Wallet', number: true }, { label: 'Charged', number: true }, 'Request / key', 'Note']}>
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
            </tr>
          ))}
        </DataTable>
      )}
      <CursorPager pages={pages} pageInfo={page && { endCursor: page.nextBefore, hasNextPage: page.hasMore }} label="Ledger" />
    </section>
  );
}
