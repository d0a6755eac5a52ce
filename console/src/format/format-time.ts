function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Unix seconds as local `YYYY-MM-DD HH:mm:ss`, the same in every language. */
export function formatDateTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A chart axis label: `HH:mm` for hourly buckets, `MM-DD` for daily ones. */
export function formatBucket(unixSeconds: number, bucket: 'hour' | 'day'): string {
  const date = new Date(unixSeconds * 1000);
  return bucket === 'hour'
    ? `${pad(date.getHours())}:${pad(date.getMinutes())}`
    : `${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
