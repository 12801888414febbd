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
  /** The SQL expression over `u` (usage_records) and, when `needsKeyJoin`, `k` (api_keys). */
  sql: string;
  /** project and member live on the key, not on the usage record. */
  needsKeyJoin: boolean;
}

export const SPEND_GROUP_COLUMNS: Record<SpendGroup, GroupColumn> = {
  model: { sql: 'u."model"', needsKeyJoin: false },
  // The UTC calendar date, as dashboards draw it whatever the server's time zone.
  day: { sql: `to_char(u."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD')`, needsKeyJoin: false },
  endpoint: { sql: 'u."endpoint"', needsKeyJoin: false },
  status: { sql: 'u."status_code"', needsKeyJoin: false },
  key: { sql: 'u."key_id"', needsKeyJoin: false },
  account: { sql: 'u."account_id"', needsKeyJoin: false },
  project: { sql: 'k."project_id"', needsKeyJoin: true },
  member: { sql: 'k."member_id"', needsKeyJoin: true },
};

/** Rows come back by day, then model, then the other groupings in the order asked. */
export function spendGroupOrder(groups: readonly SpendGroup[]): SpendGroup[] {
  const first = (['day', 'model'] as const).filter((g) => groups.includes(g));
  return [...first, ...groups.filter((g) => g !== 'day' && g !== 'model')];
}
