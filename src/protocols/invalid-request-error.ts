/**
 * A client request that breaks what its protocol requires, found while decoding it. The relay
 * reports it as a 400 `convert_request_failed` naming the field; any other error thrown while
 * decoding is a failure of the gateway itself (500 `internal_error`).
 */
export class InvalidRequestError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'InvalidRequestError';
  }
}
