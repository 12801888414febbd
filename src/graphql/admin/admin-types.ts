import { GraphQLDateTimeISO, GraphQLJSONObject, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

/**
 * The admin GraphQL's types: the objects of the admin REST API
 * (/api/admin/...), camel-cased. Money is SafeInt micro-USD; ledger ids are
 * strings (64-bit).
 */

@ObjectType({ description: 'A customer account: its keys, projects and members, its wallet and budgets.' })
export class Account {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'A project or a member of an account (what keys are grouped by).' })
export class AccountOwner {
  @Field(() => ID) id!: string;
  @Field({ description: 'project or member' }) kind!: string;
  @Field() accountId!: string;
  @Field() name!: string;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'An account with its projects, members and active key count.' })
export class AccountDetail extends Account {
  @Field(() => [AccountOwner]) projects!: AccountOwner[];
  @Field(() => [AccountOwner]) members!: AccountOwner[];
  @Field(() => Int) activeKeys!: number;
}

@ObjectType({ description: 'An API key (never its secret, which is shown once at creation).' })
export class ApiKey {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() keyPrefix!: string;
  @Field(() => [String]) models!: string[];
  @Field(() => [String], { description: 'Search result domains the key may receive (a domain covers its subdomains); empty: every domain.' }) allowedDomains!: string[];
  @Field(() => [String], { nullable: true, description: 'MCP tools (`<server>__<tool>`, or patterns such as `weather__*`) the key may use through /mcp; null: every tool, empty: none.' }) mcpTools!: string[] | null;
  @Field() accountId!: string;
  @Field(() => String, { nullable: true }) projectId!: string | null;
  @Field(() => String, { nullable: true }) memberId!: string | null;
  @Field(() => String, { nullable: true, description: 'The key that minted it, for a temporary credential; null for a key the operator made.' }) parentKeyId!: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) expiresAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) revokedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'A key just created: its secret is shown this once.' })
export class CreatedApiKey extends ApiKey {
  @Field() key!: string;
}

@InputType({ description: 'A key to create: the fields of POST /api/admin/keys.' })
export class CreateKeyInput {
  @Field() name!: string;
  @Field(() => [String], { nullable: true }) models?: string[];
  @Field(() => GraphQLDateTimeISO, { nullable: true }) expiresAt?: Date;
  @Field({ nullable: true }) accountId?: string;
  @Field({ nullable: true, description: 'A project name of the account (made on first use).' }) project?: string;
  @Field({ nullable: true, description: 'A member name of the account (made on first use).' }) member?: string;
  @Field(() => [String], { nullable: true, description: 'Search result domains the key may receive; left out: every domain.' }) allowedDomains?: string[];
  @Field(() => [String], { nullable: true, description: 'MCP tools (names or patterns) the key may use; left out: every tool, empty: none.' }) mcpTools?: string[];
}

@InputType({ description: 'What to change of a key: the fields of PATCH /api/admin/keys/{id}; a field left out (or null) stays as it is.' })
export class UpdateKeyInput {
  @Field(() => [String], { nullable: true, description: 'The models it may use; empty: every model.' }) models?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Search result domains it may receive; empty: every domain.' }) allowedDomains?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'MCP tools (names or patterns) it may use; empty: none (setKeyMcpTools with null allows every tool again).' }) mcpTools?: string[] | null;
}

@ObjectType({ description: "An account's wallet: balance after open holds, what is held, and how far below zero holds may go." })
export class Wallet {
  @Field() accountId!: string;
  @Field(() => GraphQLSafeInt) balanceMicrousd!: number;
  @Field(() => GraphQLSafeInt) heldMicrousd!: number;
  @Field(() => GraphQLSafeInt, { nullable: true, description: '0: prepaid; null: never refused.' }) creditLimitMicrousd!: number | null;
  @Field({ description: 'Whether the account has a wallet: its paid calls hold against it and its budgets.' }) spendControlled!: boolean;
}

@ObjectType({ description: 'A top-up or an adjustment: its ledger entry and the wallet after it.' })
export class WalletMovement {
  @Field(() => ID) entryId!: string;
  @Field(() => Wallet) wallet!: Wallet;
}

@ObjectType({ description: 'One movement of money in the append-only ledger.' })
export class LedgerEntry {
  @Field(() => ID) id!: string;
  @Field({ description: 'top_up, hold, settle, release, charge, refund, adjustment, lease or lease_return.' }) kind!: string;
  @Field(() => GraphQLSafeInt, { description: 'What it did to the wallet balance (a hold is negative).' }) amountMicrousd!: number;
  @Field(() => GraphQLSafeInt, { description: 'What it did to the amount charged for calls.' }) chargedMicrousd!: number;
  @Field(() => String, { nullable: true }) holdId!: string | null;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => String, { nullable: true }) keyId!: string | null;
  @Field(() => String, { nullable: true }) parentKeyId!: string | null;
  @Field(() => String, { nullable: true }) projectId!: string | null;
  @Field(() => String, { nullable: true }) memberId!: string | null;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => String, { nullable: true, description: 'For a refund the gateway made itself: the request it was made for (a decision whose generated questions were unusable).' }) relatedRequestId!: string | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType({ description: 'A page of ledger entries, newest first.' })
export class LedgerPage {
  @Field(() => [LedgerEntry]) entries!: LedgerEntry[];
  @Field() hasMore!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `before` for the next (older) page.' }) nextBefore!: string | null;
}

@ObjectType({ description: 'One invariant, recomputed from the ledger, and the rows that break it.' })
export class ReconcileCheck {
  @Field() name!: string;
  @Field() description!: string;
  @Field() ok!: boolean;
  @Field(() => [GraphQLJSONObject]) violations!: Record<string, unknown>[];
}

@ObjectType({ description: 'Holds not ended yet: calls and video tasks in flight.' })
export class OpenHolds {
  @Field(() => Int) count!: number;
  @Field(() => GraphQLSafeInt) amountMicrousd!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) oldestAt!: Date | null;
}

@ObjectType({ description: 'The spend-control invariants (GET /api/admin/reconcile).' })
export class Reconciliation {
  @Field(() => String, { nullable: true }) accountId!: string | null;
  @Field() ok!: boolean;
  @Field(() => [ReconcileCheck]) checks!: ReconcileCheck[];
  @Field(() => OpenHolds) openHolds!: OpenHolds;
}

@InputType({ description: 'A budget to set: the fields of POST /api/admin/accounts/{id}/budgets.' })
export class CreateBudgetInput {
  @Field({ description: 'key, project, member or account' }) scope!: string;
  @Field({ nullable: true, description: 'The key, project or member id; left out for an account budget.' }) scopeId?: string;
  @Field({ description: 'total, monthly or daily' }) period!: string;
  @Field(() => GraphQLSafeInt) limitMicrousd!: number;
  @Field({ nullable: true, description: 'hard (default) or soft' }) mode?: string;
}

@ObjectType({ description: 'A removed budget.' })
export class BudgetDeletion {
  @Field(() => ID) id!: string;
  @Field() deleted!: boolean;
}

@ObjectType({ description: 'A refund of a settled charge: its ledger entry and the wallet after it.' })
export class Refund {
  @Field(() => ID) entryId!: string;
  @Field() requestId!: string;
  @Field(() => GraphQLSafeInt) refundedMicrousd!: number;
  @Field(() => Wallet) wallet!: Wallet;
}

@ObjectType({ description: "How an MCP server answered this instance lately (each instance keeps its own; a restart forgets it)." })
export class McpServerHealth {
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'The last call that reached it (a JSON-RPC error included).' }) lastSuccessAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'The last call that could not reach it, timed out, or was refused.' }) lastFailureAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Why that call failed.' }) lastError!: string | null;
}

@ObjectType({ description: 'An upstream MCP server of the catalog (`mcp.servers`), its tools served at /mcp as `<name>__<tool>`.' })
export class McpServer {
  @Field(() => ID) name!: string;
  @Field() url!: string;
  @Field({ description: 'streamable_http or sse' }) transport!: string;
  @Field(() => GraphQLJSONObject, { description: 'How the gateway authenticates to it: none, headers (header -> environment variable) or oauth_client_credentials; secrets named by variable.' }) auth!: Record<string, unknown>;
  @Field({ description: 'Whether a loopback or private address is allowed.' }) private!: boolean;
  @Field(() => Int) timeoutMs!: number;
  @Field() enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'USD per tools/call, a decimal string; null: zero.' }) pricePerCall!: string | null;
  @Field(() => GraphQLJSONObject, { description: 'Tool name -> USD per call, instead of pricePerCall.' }) toolPrices!: Record<string, string>;
  @Field(() => McpServerHealth) health!: McpServerHealth;
}

@InputType({ description: 'An MCP server to add: the fields of POST /api/admin/mcp/servers.' })
export class AddMcpServerInput {
  @Field() name!: string;
  @Field() url!: string;
  @Field({ nullable: true }) transport?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) auth?: Record<string, unknown>;
  @Field({ nullable: true }) private?: boolean;
  @Field(() => Int, { nullable: true }) timeoutMs?: number;
  @Field({ nullable: true }) enabled?: boolean;
  @Field({ nullable: true }) pricePerCall?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) toolPrices?: Record<string, unknown>;
}

@InputType({ description: 'What to change of an MCP server: the fields of PATCH /api/admin/mcp/servers/{name}; a field left out stays, a field set to null goes back to its default.' })
export class UpdateMcpServerInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) transport?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) auth?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true }) private?: boolean | null;
  @Field(() => Int, { nullable: true }) timeoutMs?: number | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => String, { nullable: true }) pricePerCall?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) toolPrices?: Record<string, unknown> | null;
}

@ObjectType({ description: 'A removed MCP server.' })
export class McpServerRemoval {
  @Field(() => ID) name!: string;
  @Field() deleted!: boolean;
}
