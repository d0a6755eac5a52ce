/**
 * Waits for every start to end, then throws the first failure. `Promise.all` rejects at the first
 * failure while the other starts go on, so what they start would be left running where no
 * `afterAll` can see it; each start here records what it started before this resolves.
 */
export async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(starts);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
