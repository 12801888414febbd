/** A status word in a coloured pill: `tone` picks the colour, the text says it (colour is never the only cue). */
export function StatusBadge({ text, tone }: { text: string; tone: 'neutral' | 'busy' | 'good' | 'bad' }) {
  return <span class={`badge badge-${tone}`}>{text}</span>;
}
