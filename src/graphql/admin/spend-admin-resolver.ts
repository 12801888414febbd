import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import type { WalletState } from '../../admin/spend-admin';
import type { LedgerEntryView } from '../../billing/ledger';
import { nextCursor } from '../../db/page';
import { BudgetNode, budgetNode } from '../types/budget';
import type { AdminGraphqlContext } from './admin-context';
import { BudgetDeletion, CreateBudgetInput, LedgerEntry, LedgerPage, Reconciliation, Refund, Wallet, WalletMovement } from './admin-types';

/** Wallets, budgets, the ledger and reconcile: the admin REST spend-control calls, through the same SpendAdmin. */
@Resolver()
export class SpendAdminResolver {
  @Query(() => Wallet)
  async wallet(@Arg('accountId', () => ID) accountId: string, @Ctx() ctx: AdminGraphqlContext): Promise<Wallet> {
    return wallet(await ctx.admin.spend.wallet(await ctx.admin.spend.account(accountId)));
  }

  @Query(() => [BudgetNode], { description: "The account's budgets with the current period's figures." })
  async accountBudgets(@Arg('accountId', () => ID) accountId: string, @Ctx() ctx: AdminGraphqlContext): Promise<BudgetNode[]> {
    return (await ctx.admin.spend.budgets(await ctx.admin.spend.account(accountId))).map(budgetNode);
  }

  @Query(() => LedgerPage, { description: "The account's ledger, newest first." })
  async ledger(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('first', () => Int, { nullable: true, description: '1 to 500; 100 when not given.' }) first: number | null,
    @Arg('before', () => String, { nullable: true, description: 'nextBefore of an earlier page.' }) before: string | null,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<LedgerPage> {
    const page = await ctx.admin.spend.ledger(await ctx.admin.spend.account(accountId), first ?? undefined, before ?? undefined);
    return { entries: page.items.map(ledgerEntry), hasMore: page.hasMore, nextBefore: nextCursor(page) };
  }

  @Query(() => Reconciliation, { description: 'The spend-control invariants, recomputed from the ledger: one account, or all.' })
  async reconcile(@Arg('accountId', () => ID, { nullable: true }) accountId: string | null, @Ctx() ctx: AdminGraphqlContext): Promise<Reconciliation> {
    const report = await ctx.admin.spend.reconcile(accountId);
    return {
      accountId: report.account_id, ok: report.ok, checks: report.checks,
      openHolds: { count: report.open_holds.count, amountMicrousd: report.open_holds.amount_microusd, oldestAt: report.open_holds.oldest_at ? new Date(report.open_holds.oldest_at) : null },
    };
  }

  @Mutation(() => WalletMovement, { description: 'Adds money to the wallet (made prepaid if the account had none).' })
  async topUpWallet(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('amountMicrousd', () => GraphQLSafeInt) amount: number,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<WalletMovement> {
    const moved = await ctx.admin.spend.move(await ctx.admin.spend.account(accountId), 'top_up', { amount_microusd: amount, ...(note != null && { note }) });
    return { entryId: moved.entry_id, wallet: wallet(moved.wallet) };
  }

  @Mutation(() => WalletMovement, { description: 'Corrects the balance up or down; the note is required.' })
  async adjustWallet(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('amountMicrousd', () => GraphQLSafeInt) amount: number,
    @Arg('note') note: string,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<WalletMovement> {
    const moved = await ctx.admin.spend.move(await ctx.admin.spend.account(accountId), 'adjustment', { amount_microusd: amount, note });
    return { entryId: moved.entry_id, wallet: wallet(moved.wallet) };
  }

  @Mutation(() => Wallet, { description: 'How far below zero holds may take the balance (null: never refused).' })
  async setCreditLimit(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('creditLimitMicrousd', () => GraphQLSafeInt, { nullable: true }) limit: number | null,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<Wallet> {
    return wallet(await ctx.admin.spend.setCreditLimit(await ctx.admin.spend.account(accountId), { credit_limit_microusd: limit }));
  }

  @Mutation(() => Refund, { description: 'Gives back a settled charge (or part of it) to its wallet and key; the usage record is lowered by as much.' })
  async refund(
    @Arg('requestId') requestId: string,
    @Arg('amountMicrousd', () => GraphQLSafeInt, { nullable: true, description: 'Left out: all that is left.' }) amount: number | null,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<Refund> {
    const done = await ctx.admin.spend.refund({ request_id: requestId, ...(amount != null && { amount_microusd: amount }), ...(note != null && { note }) });
    return { entryId: done.entry_id, requestId: done.request_id, refundedMicrousd: done.refunded_microusd, wallet: wallet(done.wallet) };
  }

  @Mutation(() => BudgetNode)
  async createBudget(@Arg('accountId', () => ID) accountId: string, @Arg('input', () => CreateBudgetInput) input: CreateBudgetInput, @Ctx() ctx: AdminGraphqlContext): Promise<BudgetNode> {
    const body = {
      scope: input.scope, period: input.period, limit_microusd: input.limitMicrousd,
      ...(input.scopeId != null && { scope_id: input.scopeId }), ...(input.mode != null && { mode: input.mode }),
    };
    return budgetNode(await ctx.admin.spend.createBudget(await ctx.admin.spend.account(accountId), body));
  }

  @Mutation(() => BudgetNode)
  async updateBudget(
    @Arg('id', () => ID) id: string,
    @Arg('limitMicrousd', () => GraphQLSafeInt, { nullable: true }) limit: number | null,
    @Arg('mode', () => String, { nullable: true }) mode: string | null,
    @Ctx() ctx: AdminGraphqlContext,
  ): Promise<BudgetNode> {
    return budgetNode(await ctx.admin.spend.updateBudget(id, { ...(limit != null && { limit_microusd: limit }), ...(mode != null && { mode }) }));
  }

  @Mutation(() => BudgetDeletion)
  async deleteBudget(@Arg('id', () => ID) id: string, @Ctx() ctx: AdminGraphqlContext): Promise<BudgetDeletion> {
    return ctx.admin.spend.deleteBudget(id);
  }
}

function wallet(w: WalletState): Wallet {
  return { accountId: w.account_id, balanceMicrousd: w.balance_microusd, heldMicrousd: w.held_microusd, creditLimitMicrousd: w.credit_limit_microusd, spendControlled: w.spend_controlled };
}

function ledgerEntry(e: LedgerEntryView): LedgerEntry {
  return {
    id: e.id, kind: e.kind, amountMicrousd: e.amount_microusd, chargedMicrousd: e.charged_microusd, holdId: e.hold_id, requestId: e.request_id,
    keyId: e.key_id, parentKeyId: e.parent_key_id, projectId: e.project_id, memberId: e.member_id, note: e.note, relatedRequestId: e.related_request_id, createdAt: new Date(e.created_at),
  };
}
