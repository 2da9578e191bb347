const pad = (value: number) => String(value).padStart(2, '0');

/**
 * An ISO time as a `datetime-local` input shows it, in the operator's time zone to the minute ('' for
 * none or a value that is not a time).
 */
export function localDateTime(iso: string | undefined): string {
  if (iso === undefined) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const date = `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
  return `${date}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/**
 * What a `datetime-local` input holds as an ISO time in UTC (undefined when empty); a value the browser
 * could not read is passed on as typed, so that the schema refuses it with its own message.
 */
export function isoOfLocal(value: string): string | undefined {
  if (value === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
}
