import { formatUsd } from '../../lib/format';
import type { PriceLanes } from './catalog-entry';

/** A model's prices: per lane, each usage dimension's price in USD for `per` units, as the catalog states them. */
export function PriceTable({ lanes, currency }: { lanes: PriceLanes; currency: string }) {
  const rows = Object.entries(lanes).flatMap(([lane, dimensions]) => Object.entries(dimensions).map(([dimension, price]) => ({ lane, dimension, price })));
  if (rows.length === 0) return <span class="muted">no prices</span>;
  const showLane = Object.keys(lanes).length > 1;
  return (
    <table class="compact">
      <caption class="visually-hidden">Prices in {currency}</caption>
      <tbody>
        {rows.map(({ lane, dimension, price }) => (
          <tr key={`${lane}/${dimension}`}>
            {showLane && <td class="muted">{lane}</td>}
            <th scope="row">{dimension}</th>
            <td class="number nowrap">
              {formatUsd(price.usd)} <span class="muted">/ {perUnits(price.per)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function perUnits(per: number): string {
  if (per >= 1_000_000 && per % 1_000_000 === 0) return `${per / 1_000_000}M`;
  if (per >= 1_000 && per % 1_000 === 0) return `${per / 1_000}K`;
  return String(per);
}
