import type { SimulatorContext } from '../context';
import type { protocolDirectiveGate } from '../directive-gate';
import { type Directives, type SearchProtocol, parseDirectives, withoutFailureKnobs } from '../directives';
import type { Exchange } from '../routing';

/** A search protocol's directive gate, made with `protocolDirectiveGate` in that protocol's error shape. */
export type SearchDirectiveGate = ReturnType<typeof protocolDirectiveGate>;

/**
 * The directives of a search request, read from its query text, and the
 * shared gate (latency, hang, simulated failures) passed with them. `on=`
 * names the one protocol the failure knobs are meant for: on any other, they
 * are dropped before the gate, so that protocol neither waits, hangs, fails
 * nor counts a `fail_times` sighting. Undefined when the request was already
 * answered: a malformed directive (400 through `refuse`), a simulated
 * failure, or a client that went away.
 */
export async function admitSearch(
  context: SimulatorContext,
  exchange: Exchange,
  protocol: SearchProtocol,
  query: string,
  gate: SearchDirectiveGate,
  refuse: (message: string) => void,
): Promise<Directives | undefined> {
  const parsed = parseDirectives(query);
  if (!parsed.ok) {
    refuse(parsed.message);
    return undefined;
  }
  const directives = forProtocol(parsed.directives, protocol);
  return (await gate(context, exchange, directives, query, protocol)) ? directives : undefined;
}

function forProtocol(directives: Directives, protocol: SearchProtocol): Directives {
  return directives.on === undefined || directives.on === protocol ? directives : withoutFailureKnobs(directives);
}
