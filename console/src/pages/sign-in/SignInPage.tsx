import { SecretForm } from '../../components/SecretForm';
import { checkAdminToken, checkApiKey } from '../../lib/secret-check';

/**
 * The first page of a console with no API key: "I have an API key" beside
 * "I am the operator". The key opens the key's pages; the admin token
 * opens Admin, where an operator of a gateway without keys makes the first.
 * Each is checked with the gateway before it is kept.
 */
export function SignInPage({ onKey, onAdminToken }: { onKey(key: string, remember: boolean): void; onAdminToken(token: string, remember: boolean): void }) {
  return (
    <section class="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <div class="sign-in-choices">
        <SecretForm
          title="I have an API key"
          label="API key"
          hint="A key of this gateway (sk-gw-…), from its operator. It stays in this browser and goes only to this gateway."
          placeholder="sk-gw-…"
          check={checkApiKey}
          onSave={onKey}
        />
        <SecretForm
          title="I am the operator"
          label="Admin token"
          hint="The gateway's GATEWAY_ADMIN_TOKEN: accounts, keys, wallets and budgets. On a gateway with no keys yet, it makes the first."
          check={checkAdminToken}
          onSave={onAdminToken}
        />
      </div>
    </section>
  );
}
