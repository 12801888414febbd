import { ProblemNotice } from '../../components/ProblemNotice';
import { checkApiKey } from '../../lib/secret-check';
import { useAction } from '../../lib/use-action';
import type { AdminSession } from '../../lib/admin-session';
import { CreateKeyForm } from './CreateKeyForm';

/**
 * A gateway without keys: the operator makes the first one here (in the
 * default account), sees its secret once, and may sign in with it, which
 * opens the key's pages.
 */
export function FirstKey({ admin, onSignIn, onDone }: { admin: AdminSession; onSignIn(key: string, remember: boolean): void; onDone(): void }) {
  const signIn = useAction();
  return (
    <section class="card first-run" aria-labelledby="first-key-title">
      <header class="section-header">
        <h2 id="first-key-title">Create the first API key</h2>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </header>
      <p class="muted">
        This gateway has no API keys yet. Applications, and this console's other pages, call it with one. The first goes to the default account; accounts
        of your own come below.
      </p>
      <CreateKeyForm
        admin={admin}
        onSignIn={(key) =>
          void signIn.run(async () => {
            await checkApiKey(key);
            onSignIn(key, false);
          })
        }
      />
      <ProblemNotice problem={signIn.problem} />
    </section>
  );
}
