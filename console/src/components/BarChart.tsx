export interface Bar {
  label: string;
  value: number;
}

export interface BarChartProps {
  /** The chart's name, also its accessible name. */
  title: string;
  bars: Bar[];
  /** How a value is written (axis maximum, tooltips, the table for screen readers). */
  format(value: number): string;
  /** `columns`: one upright bar per label along the bottom (days); `rows`: one bar per line, labels at the left (models). */
  layout: 'columns' | 'rows';
}

const WIDTH = 560;
const COLUMN_HEIGHT = 180;
const ROW_HEIGHT = 22;
const LABEL_WIDTH = 150;
const AXIS = 18;
/** The widest a column gets, so a chart of one or two days does not turn into a block. */
const MAX_COLUMN = 28;

/**
 * A bar chart in plain SVG, no chart library: bars scaled to the largest
 * value, each with a tooltip (`<title>`). The figures are also in a
 * visually hidden table, so the chart reads out as data.
 */
export function BarChart({ title, bars, format, layout }: BarChartProps) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const scale = (value: number, length: number) => (max > 0 ? (value / max) * length : 0);
  const height = layout === 'columns' ? COLUMN_HEIGHT + AXIS : Math.max(1, bars.length) * ROW_HEIGHT;
  return (
    <figure class="chart">
      <figcaption>
        {title} <span class="muted">(largest {format(max)})</span>
      </figcaption>
      {bars.length === 0 ? (
        <p class="muted">Nothing to draw.</p>
      ) : (
        <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={title} preserveAspectRatio="xMinYMin meet">
          {layout === 'columns' ? <Columns bars={bars} scale={scale} format={format} /> : <Rows bars={bars} scale={scale} format={format} />}
        </svg>
      )}
      {/* A div holds it hidden: a table ignores the height and overflow that hide it, and would lengthen the page. */}
      <div class="visually-hidden">
        <table>
          <caption>{title}</caption>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row">{bar.label}</th>
                <td>{format(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

type PartProps = { bars: Bar[]; scale: (value: number, length: number) => number; format: (value: number) => string };

/** Upright bars along a baseline, with the first, middle and last labels under it. */
function Columns({ bars, scale, format }: PartProps) {
  const slot = WIDTH / bars.length;
  const width = Math.max(1, Math.min(MAX_COLUMN, slot - Math.min(4, slot * 0.2)));
  const labelled = new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1]);
  return (
    <g>
      <line class="chart-axis" x1={0} x2={WIDTH} y1={COLUMN_HEIGHT} y2={COLUMN_HEIGHT} />
      {bars.map((bar, i) => {
        const h = scale(bar.value, COLUMN_HEIGHT - 4);
        return (
          <g key={bar.label}>
            <rect class="chart-bar" x={i * slot + (slot - width) / 2} y={COLUMN_HEIGHT - h} width={width} height={h}>
              <title>{`${bar.label}: ${format(bar.value)}`}</title>
            </rect>
            {labelled.has(i) && (
              <text class="chart-label" x={i * slot + slot / 2} y={COLUMN_HEIGHT + 13} text-anchor={i === 0 ? 'start' : i === bars.length - 1 ? 'end' : 'middle'}>
                {bar.label}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}

/** One horizontal bar per line, its label at the left and its value at its end. */
function Rows({ bars, scale, format }: PartProps) {
  const room = WIDTH - LABEL_WIDTH - 90;
  return (
    <g>
      {bars.map((bar, i) => {
        const w = scale(bar.value, room);
        const y = i * ROW_HEIGHT;
        return (
          <g key={bar.label}>
            <text class="chart-label" x={LABEL_WIDTH - 6} y={y + 15} text-anchor="end">
              {bar.label.length > 22 ? `${bar.label.slice(0, 21)}…` : bar.label}
            </text>
            <rect class="chart-bar" x={LABEL_WIDTH} y={y + 4} width={Math.max(1, w)} height={ROW_HEIGHT - 8}>
              <title>{`${bar.label}: ${format(bar.value)}`}</title>
            </rect>
            <text class="chart-value" x={LABEL_WIDTH + Math.max(1, w) + 6} y={y + 15}>
              {format(bar.value)}
            </text>
          </g>
        );
      })}
    </g>
  );
}
