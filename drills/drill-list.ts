import type { Drill } from './drill';
import { databaseOutageDrill } from './database-outage-drill';
import { fuzzDrill } from './fuzz-drill';
import { instanceKillDrill } from './instance-kill-drill';
import { redisPauseDrill } from './redis-pause-drill';
import { upstreamFaultsDrill } from './upstream-faults-drill';

/** Every drill, in the order `DRILLS=all` runs them. */
export const DRILLS: Drill[] = [fuzzDrill, upstreamFaultsDrill, databaseOutageDrill, redisPauseDrill, instanceKillDrill];
