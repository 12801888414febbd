import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { mintCredentialSchema } from '../../credentials/credentials-router';
import { mintCredential } from '../../credentials/mint-credential';
import { GatewayError } from '../../errors/gateway-error';
import { parseRequest } from '../../errors/parse-request';
import type { CredentialView } from '../../keys/credential-store';
import type { Principal } from '../../keys/principal';
import type { GraphqlContext } from '../context';
import { BudgetNode, budgetNode } from '../types/budget';
import { CreateCredentialInput, CredentialNode, MintedCredential } from '../types/credential';

/**
 * What the calling key may see and do of spend control: the budgets over it
 * (its own, its project's, its member's, its account's; never another key's),
 * and its temporary credentials, minted and revoked as through REST.
 */
@Resolver()
export class SpendControlResolver {
  @Query(() => [BudgetNode], { description: 'The budgets the calling key is checked against, with the current period\'s figures.' })
  async budgets(@Ctx() ctx: GraphqlContext): Promise<BudgetNode[]> {
    return (await ctx.loaders.budgets()).map(budgetNode);
  }

  @Query(() => [CredentialNode], { description: 'The temporary credentials the calling key minted, newest first.' })
  async credentials(@Ctx() ctx: GraphqlContext): Promise<CredentialNode[]> {
    // A temporary credential mints none: it is told so (credential_not_allowed), as over REST, rather than shown an empty list.
    parentKey(ctx.principal);
    return (await ctx.loaders.credentials()).map(credentialNode);
  }

  @Mutation(() => MintedCredential, { description: 'Mints a temporary credential for the calling key (POST /api/credentials).' })
  async createCredential(@Arg('input', () => CreateCredentialInput) input: CreateCredentialInput, @Ctx() ctx: GraphqlContext): Promise<MintedCredential> {
    const parent = parentKey(ctx.principal);
    const body = parseRequest(mintCredentialSchema, {
      ...(input.name != null && { name: input.name }),
      ...(input.expiresIn != null && { expires_in: input.expiresIn }),
      ...(input.models != null && { models: input.models }),
      ...(input.budgetMicrousd != null && { budget_microusd: input.budgetMicrousd }),
      ...(input.allowedDomains != null && { allowed_domains: input.allowedDomains }),
      ...(input.mcpTools != null && { mcp_tools: input.mcpTools }),
    });
    const minted = await mintCredential(ctx.services.credentials, parent, {
      name: body.name, expiresInSeconds: body.expires_in, models: body.models, allowedDomains: body.allowed_domains, mcpTools: body.mcp_tools,
      budgetMicrousd: body.budget_microusd === undefined ? undefined : BigInt(body.budget_microusd),
    });
    return { ...credentialNode(minted), key: minted.key, budget: minted.budget && budgetNode(minted.budget) };
  }

  @Mutation(() => CredentialNode, { description: 'Revokes one of the calling key\'s credentials on every instance.' })
  async revokeCredential(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<CredentialNode> {
    const revoked = await ctx.services.credentials.credentials.revoke(parentKey(ctx.principal).keyId, id);
    if (!revoked) throw new GatewayError('credential_not_found', `No temporary credential "${id}" minted by this key.`);
    return credentialNode(revoked);
  }
}

function parentKey(principal: Principal): Principal {
  if (principal.parentKeyId !== null) throw new GatewayError('credential_not_allowed', 'A temporary credential cannot mint, list or revoke credentials; use the key that minted it.');
  return principal;
}

/** A credential as GraphQL shows it. */
export function credentialNode(c: CredentialView): CredentialNode {
  return {
    id: c.id, name: c.name, keyPrefix: c.key_prefix, models: c.models, allowedDomains: c.allowed_domains, mcpTools: c.mcp_tools,
    expiresAt: new Date(c.expires_at), revokedAt: c.revoked_at ? new Date(c.revoked_at) : null, createdAt: new Date(c.created_at),
  };
}
