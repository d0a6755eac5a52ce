/** A short readable text for an error thrown while talking to an upstream (connect, socket, timeout). */
export function describeTransportError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Happy-eyeballs connects fail with one error per address tried.
    return [...new Set(error.errors.map(describeTransportError))].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    const message = error.message || (typeof code === 'string' ? code : error.name);
    if (error.cause instanceof Error && error.cause.message && !message.includes(error.cause.message))
      return `${message}: ${describeTransportError(error.cause)}`;
    return message;
  }
  return String(error);
}
