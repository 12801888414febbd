import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { AccountView, OwnerView } from '../../keys/account-store';
import type { ApiKeyView } from '../../keys/key-store';
import type { AdminGraphqlContext } from './admin-context';
import { Account, AccountDetail, AccountOwner, ApiKey, CreatedApiKey, CreateKeyInput, UpdateKeyInput } from './admin-types';

/** Accounts, their projects and members, and keys: the admin REST calls of /api/admin/accounts and /api/admin/keys, through the same AccountAdmin and KeyAdmin. */
@Resolver()
export class AccountsAdminResolver {
  @Query(() => [Account], { description: 'Every account (the first 1,000, oldest first).' })
  async accounts(@Ctx() ctx: AdminGraphqlContext): Promise<Account[]> {
    return (await ctx.admin.accounts.list()).map(account);
  }

  @Query(() => AccountDetail, { nullable: true, description: 'An account with its projects and members; null when there is none.' })
  async account(@Arg('id', () => ID) id: string, @Ctx() ctx: AdminGraphqlContext): Promise<AccountDetail | null> {
    const found = await ctx.admin.accounts.find(id);
    return found && { ...account(found), projects: found.projects.map(owner), members: found.members.map(owner), activeKeys: found.active_keys };
  }

  @Query(() => [ApiKey], { description: 'Every key (the first 1,000, newest first).' })
  async keys(@Ctx() ctx: AdminGraphqlContext): Promise<ApiKey[]> {
    return (await ctx.admin.keys.list()).map(apiKey);
  }

  @Mutation(() => Account)
  async createAccount(@Arg('name') name: string, @Ctx() ctx: AdminGraphqlContext): Promise<Account> {
    return account(await ctx.admin.accounts.create({ name }));
  }

  @Mutation(() => AccountOwner, { description: 'The account\'s project of this name, made if it is new.' })
  async createProject(@Arg('accountId', () => ID) accountId: string, @Arg('name') name: string, @Ctx() ctx: AdminGraphqlContext): Promise<AccountOwner> {
    return owner((await ctx.admin.accounts.owner(accountId, 'project', { name })).owner);
  }

  @Mutation(() => AccountOwner, { description: 'The account\'s member of this name, made if it is new.' })
  async createMember(@Arg('accountId', () => ID) accountId: string, @Arg('name') name: string, @Ctx() ctx: AdminGraphqlContext): Promise<AccountOwner> {
    return owner((await ctx.admin.accounts.owner(accountId, 'member', { name })).owner);
  }

  @Mutation(() => CreatedApiKey, { description: 'Creates a key; its secret is in the answer, once.' })
  async createKey(@Arg('input', () => CreateKeyInput) input: CreateKeyInput, @Ctx() ctx: AdminGraphqlContext): Promise<CreatedApiKey> {
    const created = await ctx.admin.keys.create({
      name: input.name,
      ...(input.models != null && { models: input.models }),
      ...(input.expiresAt != null && { expires_at: input.expiresAt.toISOString() }),
      ...(input.accountId != null && { account_id: input.accountId }),
      ...(input.project != null && { project: input.project }),
      ...(input.member != null && { member: input.member }),
      ...(input.allowedDomains != null && { allowed_domains: input.allowedDomains }),
      ...(input.mcpTools != null && { mcp_tools: input.mcpTools }),
    });
    return { ...apiKey(created), key: created.key };
  }

  @Mutation(() => ApiKey, { description: "Changes a key's models, search domain allowlist or MCP tools on every instance; its temporary credentials are narrowed with it." })
  async updateKey(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateKeyInput) input: UpdateKeyInput, @Ctx() ctx: AdminGraphqlContext): Promise<ApiKey> {
    return apiKey(await ctx.admin.keys.update(id, {
      ...(input.models != null && { models: input.models }),
      ...(input.allowedDomains != null && { allowed_domains: input.allowedDomains }),
      ...(input.mcpTools != null && { mcp_tools: input.mcpTools }),
    }));
  }

  @Mutation(() => ApiKey, { description: "Replaces a key's MCP tool allowlist on every instance: null allows every tool, empty none; its temporary credentials are narrowed with it." })
  async setKeyMcpTools(@Arg('id', () => ID) id: string, @Arg('tools', () => [String], { nullable: true }) tools: string[] | null, @Ctx() ctx: AdminGraphqlContext): Promise<ApiKey> {
    return apiKey(await ctx.admin.keys.update(id, { mcp_tools: tools ?? null }));
  }

  @Mutation(() => ApiKey, { description: "Replaces a key's search domain allowlist (empty: every domain) on every instance." })
  async setKeyAllowedDomains(@Arg('id', () => ID) id: string, @Arg('domains', () => [String]) domains: string[], @Ctx() ctx: AdminGraphqlContext): Promise<ApiKey> {
    return apiKey(await ctx.admin.keys.update(id, { allowed_domains: domains }));
  }

  @Mutation(() => ApiKey, { description: 'Revokes a key (and its temporary credentials) on every instance.' })
  async revokeKey(@Arg('id', () => ID) id: string, @Ctx() ctx: AdminGraphqlContext): Promise<ApiKey> {
    return apiKey(await ctx.admin.keys.revoke(id));
  }
}

function account(a: AccountView): Account {
  return { id: a.id, name: a.name, createdAt: new Date(a.created_at) };
}

function owner(o: OwnerView): AccountOwner {
  return { id: o.id, kind: o.object, accountId: o.account_id, name: o.name, createdAt: new Date(o.created_at) };
}

function apiKey(k: ApiKeyView): ApiKey {
  return {
    id: k.id, name: k.name, keyPrefix: k.key_prefix, models: k.models, allowedDomains: k.allowed_domains, mcpTools: k.mcp_tools, accountId: k.account_id, projectId: k.project_id, memberId: k.member_id, parentKeyId: k.parent_key_id,
    expiresAt: k.expires_at ? new Date(k.expires_at) : null, revokedAt: k.revoked_at ? new Date(k.revoked_at) : null, createdAt: new Date(k.created_at),
  };
}
