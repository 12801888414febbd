import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import { MoneyField } from '../../components/MoneyField';
import { useToast } from '../../components/Toasts';
import { unreadableAmount } from '../../lib/amount-problem';
import { formatMicrousd, parseUsd } from '../../lib/format';
import { REFUND } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

/**
 * Gives back a request's settled charge, or part of it, to its wallet and
 * key, after a confirmation: the amount (empty: all that is left) and a
 * note are asked in the dialog itself.
 */
export function RefundDialog({ admin, requestId, charged, onClose }: { admin: AdminSession; requestId: string; charged?: number; onClose(): void }) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const toast = useToast();
  return (
    <ConfirmDialog
      title={`Refund request ${requestId}?`}
      confirmLabel="Refund"
      onConfirm={async () => {
        const microusd = amount.trim() ? parseUsd(amount) : null;
        if (microusd === undefined) throw unreadableAmount(amount);
        const { refund } = await admin.request<{ refund: { refundedMicrousd: number } }>(REFUND, { requestId, amount: microusd, note: note.trim() || null });
        toast(`Refunded ${formatMicrousd(refund.refundedMicrousd)} of request ${requestId}.`, 'success');
        admin.changed();
      }}
      onClose={onClose}
    >
      <p>
        The money goes back to the wallet, and the request's usage record is lowered by as much.
        {charged !== undefined && ` It was charged ${formatMicrousd(charged)}.`}
      </p>
      <div class="fields">
        <MoneyField label="Amount (USD; empty: all that is left)" value={amount} placeholder="all" onInput={setAmount} />
        <Field label="Note" grow>
          {(id) => <input id={id} value={note} placeholder="optional" onInput={(event) => setNote(event.currentTarget.value)} />}
        </Field>
      </div>
    </ConfirmDialog>
  );
}
