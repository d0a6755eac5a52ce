function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Unix seconds -> the value of an `<input type="datetime-local">` in local time (`2025-01-31T13:05`). */
export function toDateTimeLocal(unixSeconds: number | null): string {
  if (unixSeconds === null) return '';
  const date = new Date(unixSeconds * 1000);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The value of a `datetime-local` input -> Unix seconds; empty or invalid text -> null. */
export function fromDateTimeLocal(text: string): number | null {
  if (text.trim() === '') return null;
  const time = new Date(text).getTime();
  return Number.isNaN(time) ? null : Math.floor(time / 1000);
}
