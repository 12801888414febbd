import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import { MoneyField } from '../../components/MoneyField';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { unreadableAmount } from '../../lib/amount-problem';
import { formatMicrousd, parseUsd } from '../../lib/format';
import type { GatewayProblem } from '../../lib/gateway-problem';
import { SET_CREDIT_LIMIT, TOP_UP, type Wallet } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

type Pending = { kind: 'top_up'; amount: number; note: string } | { kind: 'credit_limit'; limit: number | null };

/**
 * The account's wallet (balance after open holds, what is held, the credit
 * limit) and the two writes on it, each confirmed first: a top-up, and the
 * credit limit (how far below zero holds may go; empty: never refused).
 */
export function WalletPanel({ admin, accountId, accountName, wallet }: { admin: AdminSession; accountId: string; accountName: string; wallet: Wallet }) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [limit, setLimit] = useState('');
  const [pending, setPending] = useState<Pending>();
  const [problem, setProblem] = useState<GatewayProblem>();
  const toast = useToast();

  const confirm = async (asked: Pending) => {
    if (asked.kind === 'top_up') {
      await admin.request(TOP_UP, { accountId, amount: asked.amount, note: asked.note.trim() || null });
      toast(`Topped up ${accountName} by ${formatMicrousd(asked.amount)}.`, 'success');
      setAmount('');
      setNote('');
    } else {
      await admin.request(SET_CREDIT_LIMIT, { accountId, limit: asked.limit });
      toast(`Credit limit of ${accountName}: ${creditLimit(asked.limit)}.`, 'success');
      setLimit('');
    }
    admin.changed();
  };

  return (
    <section aria-labelledby="wallet-title">
      <h3 id="wallet-title">Wallet</h3>
      <dl class="totals">
        <div class="total">
          <dt>Balance</dt>
          <dd data-wallet="balance">{wallet.spendControlled ? formatMicrousd(wallet.balanceMicrousd) : 'no wallet'}</dd>
        </div>
        <div class="total">
          <dt>Held</dt>
          <dd data-wallet="held">{formatMicrousd(wallet.heldMicrousd)}</dd>
        </div>
        <div class="total">
          <dt>Credit limit</dt>
          <dd data-wallet="credit-limit">{creditLimit(wallet.creditLimitMicrousd)}</dd>
        </div>
      </dl>
      <div class="form-row">
        <form
          class="inline-form"
          aria-label="Top up"
          onSubmit={(event) => {
            event.preventDefault();
            const microusd = parseUsd(amount);
            setProblem(microusd === undefined ? unreadableAmount(amount) : undefined);
            if (microusd !== undefined) setPending({ kind: 'top_up', amount: microusd, note });
          }}
        >
          <div class="fields">
            <MoneyField label="Top-up (USD)" value={amount} onInput={setAmount} />
            <Field label="Note" grow>
              {(id) => <input id={id} value={note} placeholder="optional" onInput={(event) => setNote(event.currentTarget.value)} />}
            </Field>
            <button type="submit">Top up…</button>
          </div>
        </form>
        <form
          class="inline-form"
          aria-label="Credit limit"
          onSubmit={(event) => {
            event.preventDefault();
            const microusd = limit.trim() ? parseUsd(limit) : null;
            setProblem(microusd === undefined ? unreadableAmount(limit) : undefined);
            if (microusd !== undefined) setPending({ kind: 'credit_limit', limit: microusd });
          }}
        >
          <div class="fields">
            <MoneyField label="Credit limit (USD; empty: none)" value={limit} placeholder="none" onInput={setLimit} />
            <button type="submit" class="secondary">
              Set limit…
            </button>
          </div>
        </form>
      </div>
      <ProblemNotice problem={problem} />
      {pending && (
        <ConfirmDialog
          title={pending.kind === 'top_up' ? `Top up ${accountName} by ${formatMicrousd(pending.amount)}?` : `Set the credit limit of ${accountName}?`}
          confirmLabel={pending.kind === 'top_up' ? 'Top up' : 'Set limit'}
          onConfirm={() => confirm(pending)}
          onClose={() => setPending(undefined)}
        >
          {pending.kind === 'top_up' ? (
            <p>
              The balance goes from {formatMicrousd(wallet.balanceMicrousd)} to {formatMicrousd(wallet.balanceMicrousd + pending.amount)}
              {wallet.spendControlled ? '' : '; the account gets a wallet, and its paid calls hold against it from now on'}. This is a ledger entry: it cannot be
              undone, only corrected by another.
            </p>
          ) : (
            <p>
              From {creditLimit(wallet.creditLimitMicrousd)} to {creditLimit(pending.limit)}.
              {wallet.spendControlled ? '' : ' The account gets a wallet, and its paid calls hold against it from now on.'}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

/** How far below zero holds may take the balance: 0 is prepaid, null is never refused. */
function creditLimit(microusd: number | null): string {
  if (microusd === null) return 'none (never refused)';
  return microusd === 0 ? '$0.00 (prepaid)' : formatMicrousd(microusd);
}
