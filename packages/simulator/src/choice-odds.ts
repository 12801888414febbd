import { type Random, randomInt } from './deterministic-random';

/**
 * How sure a simulated model is of a choice among a few values (an enum in a
 * structured answer, a decision's options or levels): the chosen value gets
 * between 0.55 and 0.95, the others share the rest, so the chosen one is
 * always the most likely. The shares are whole thousandths, none of them 0,
 * so they print as short decimals (0.72, 0.185), add up to exactly 1 in
 * thousandths, and each has a finite log-probability.
 */

/** One value of a choice and its probability. */
export interface Odds {
  value: string;
  probability: number;
}

const UNITS = 1000;
const MIN_CHOSEN_UNITS = 550;
const MAX_CHOSEN_UNITS = 950;

/**
 * The probability of each of `count` values, in their order, `chosen` the
 * most likely. `weightOf(index)` (positive) says how the others share what
 * the chosen value leaves: in proportion, rounded to thousandths.
 */
export function splitProbability(random: Random, count: number, chosen: number, weightOf: (index: number) => number): number[] {
  if (count <= 1) return [1];
  // Enough units for every value to get one, should a schema list hundreds.
  const units = UNITS * 10 ** Math.max(0, Math.ceil(Math.log10(count / (UNITS - MAX_CHOSEN_UNITS))));
  const chosenUnits = (randomInt(random, MIN_CHOSEN_UNITS, MAX_CHOSEN_UNITS) * units) / UNITS;
  const shares = shareUnits(units - chosenUnits, Array.from({ length: count }, (_, index) => (index === chosen ? 0 : weightOf(index))));
  shares[chosen] = chosenUnits;
  return shares.map((share) => share / units);
}

/** `total` units shared among the values of positive weight, each at least one, the leftover of rounding going to the heaviest. */
function shareUnits(total: number, weights: number[]): number[] {
  const sharing = weights.filter((weight) => weight > 0).length;
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const free = total - sharing;
  const shares = weights.map((weight) => (weight > 0 ? 1 + Math.floor((free * weight) / weightSum) : 0));
  const leftover = total - shares.reduce((sum, share) => sum + share, 0);
  const heaviestFirst = weights
    .map((weight, index) => ({ weight, index }))
    .filter(({ weight }) => weight > 0)
    .sort((a, b) => b.weight - a.weight);
  // Each share was rounded down by less than one unit, so the leftover is less than one per sharing value.
  heaviestFirst.slice(0, leftover).forEach(({ index }) => (shares[index] = (shares[index] ?? 0) + 1));
  return shares;
}

/** Odds for the values of a choice, the chosen one first, then the others from the most to the least likely. */
export function rankedOdds(values: readonly string[], probabilities: readonly number[], chosen: number): Odds[] {
  const odds = values.map((value, index) => ({ value, probability: probabilities[index] ?? 0 }));
  const others = odds.filter((_, index) => index !== chosen).sort((a, b) => b.probability - a.probability);
  return [odds[chosen], ...others];
}

/** A choice with no story behind it: a random value, the others less and less likely. */
export function randomChoiceOdds(random: Random, values: readonly string[], chosen: number): Odds[] {
  const probabilities = splitProbability(random, values.length, chosen, () => 0.1 + random());
  return rankedOdds(values, probabilities, chosen);
}
