import type { RollupDimension } from '../billing/usage-rollups';

/**
 * What spend totals may be grouped by, and the SQL each grouping reads.
 * The SQL comes only from this fixed map, never from the request, so a
 * `group_by` value can choose a column but never write one.
 */
export const SPEND_GROUPS = ['model', 'day', 'endpoint', 'status', 'key', 'project', 'member', 'account'] as const;
export type SpendGroup = (typeof SPEND_GROUPS)[number];

/** What an API key may group its own spend by. */
export const KEY_SPEND_GROUPS: readonly SpendGroup[] = ['model', 'day', 'endpoint', 'status'];
/** What the operator may group one account's spend by (its keys, projects and members too). */
export const ACCOUNT_SPEND_GROUPS: readonly SpendGroup[] = ['key', 'project', 'member', 'model', 'day', 'endpoint', 'status'];
/** Across all accounts the account itself is a grouping as well. */
export const ALL_ACCOUNTS_SPEND_GROUPS: readonly SpendGroup[] = [...ACCOUNT_SPEND_GROUPS, 'account'];

export const MAX_SPEND_GROUPS = 3;

interface GroupColumn {
  /**
   * What the grouping needs kept apart: a column of usage records (project
   * and member live on the key, so they need the key), or the UTC day.
   */
  needs: RollupDimension | 'day';
  /** The SQL expression over `p` (the records' or roll-ups' rows in range) and, when `needsKeyJoin`, `k` (api_keys). */
  sql: string;
  needsKeyJoin: boolean;
}

export const SPEND_GROUP_COLUMNS: Record<SpendGroup, GroupColumn> = {
  model: { needs: 'model', sql: 'p."model"', needsKeyJoin: false },
  // The UTC calendar date, as dashboards draw it whatever the server's time zone.
  day: { needs: 'day', sql: `to_char(p."day", 'YYYY-MM-DD')`, needsKeyJoin: false },
  endpoint: { needs: 'endpoint', sql: 'p."endpoint"', needsKeyJoin: false },
  status: { needs: 'status_code', sql: 'p."status_code"', needsKeyJoin: false },
  key: { needs: 'key_id', sql: 'p."key_id"', needsKeyJoin: false },
  account: { needs: 'account_id', sql: 'p."account_id"', needsKeyJoin: false },
  // The key's project and member now, as the operator sees them, whenever its records were made.
  project: { needs: 'key_id', sql: 'k."project_id"', needsKeyJoin: true },
  member: { needs: 'key_id', sql: 'k."member_id"', needsKeyJoin: true },
};

/** Rows come back by day, then model, then the other groupings in the order asked. */
export function spendGroupOrder(groups: readonly SpendGroup[]): SpendGroup[] {
  const first = (['day', 'model'] as const).filter((g) => groups.includes(g));
  return [...first, ...groups.filter((g) => g !== 'day' && g !== 'model')];
}
