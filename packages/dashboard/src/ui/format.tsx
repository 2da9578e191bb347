/** A yes/no state as a badge. */
export function Badge(props: { readonly on: boolean; readonly yes: string; readonly no: string }) {
  return <span className={props.on ? 'badge badge-on' : 'badge'}>{props.on ? props.yes : props.no}</span>;
}

/** A time as the operator's locale writes it, the exact value on hover. */
export function Time(props: { readonly iso: string | null }) {
  if (props.iso === null) return <span className="muted">—</span>;
  return (
    <time dateTime={props.iso} title={props.iso}>
      {new Date(props.iso).toLocaleString()}
    </time>
  );
}

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago (or how soon) a time is, in words: "3 hours ago". */
export function Age(props: { readonly iso: string; readonly now?: number }) {
  const difference = Date.parse(props.iso) - (props.now ?? Date.now());
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(difference) >= ms) ?? ['second', 1000];
  const text = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(
    Math.round(difference / size),
    unit,
  );
  return (
    <time dateTime={props.iso} title={new Date(props.iso).toLocaleString()}>
      {text}
    </time>
  );
}

/** An identifier, in monospace so that similar ids can be told apart. */
export function Id(props: { readonly value: string }) {
  return <code className="id">{props.value}</code>;
}

/** `count` and the noun, singular or plural. */
export const plural = (count: number, noun: string, nouns = `${noun}s`) =>
  `${count.toLocaleString()} ${count === 1 ? noun : nouns}`;
