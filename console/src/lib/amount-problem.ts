import { GatewayProblem } from './gateway-problem';

/** What the console says of an amount it cannot read (the gateway judges every amount that parses). */
export function unreadableAmount(text: string): GatewayProblem {
  return new GatewayProblem(`"${text}" is not an amount in dollars: write it like 5, 0.25 or 1,000 (at most six decimals).`);
}
