import { useState } from 'preact/hooks';
import { ProblemNotice } from '../../components/ProblemNotice';
import { StatusBadge } from '../../components/StatusBadge';
import { formatCount, formatMicrousd, formatTime } from '../../lib/format';
import { useAction } from '../../lib/use-action';
import { RECONCILE_QUERY, type Reconciliation } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

/**
 * Reconcile: the spend-control invariants recomputed from the ledger for
 * this account, on demand (it reads the whole ledger): each check, whether
 * it holds and how many rows break it, and the holds still open.
 */
export function ReconcilePanel({ admin, accountId }: { admin: AdminSession; accountId: string }) {
  const [report, setReport] = useState<Reconciliation>();
  const action = useAction();
  const run = () =>
    action.run(async () => {
      setReport((await admin.request<{ reconcile: Reconciliation }>(RECONCILE_QUERY, { accountId })).reconcile);
    });
  return (
    <section aria-labelledby="reconcile-title">
      <header class="section-header">
        <h3 id="reconcile-title">Reconcile</h3>
        <button type="button" class="secondary" disabled={action.pending} onClick={() => void run()}>
          {report ? 'Check again' : 'Check the books'}
        </button>
      </header>
      <ProblemNotice problem={action.problem} />
      {report && (
        <div class="reconcile" data-ok={String(report.ok)}>
          <p>
            {report.ok ? <StatusBadge text="all checks hold" tone="good" /> : <StatusBadge text="checks failed" tone="bad" />}{' '}
            <span class="muted">
              {formatCount(report.openHolds.count)} open hold{report.openHolds.count === 1 ? '' : 's'} ({formatMicrousd(report.openHolds.amountMicrousd)})
              {report.openHolds.oldestAt && `, oldest ${formatTime(report.openHolds.oldestAt)}`}
            </span>
          </p>
          <ul class="plain checks">
            {report.checks.map((c) => (
              <li key={c.name}>
                <StatusBadge text={c.ok ? 'holds' : `${c.violations.length} rows break it`} tone={c.ok ? 'good' : 'bad'} /> {c.description}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
