import type { Drill } from './drill';
import { fuzzDrill } from './fuzz-drill';

/** Every drill, in the order `DRILLS=all` runs them. */
export const DRILLS: Drill[] = [fuzzDrill];
