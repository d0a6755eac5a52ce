/**
 * A client request that breaks what chat completions requires. The relay turns it into a 400
 * `convert_request_failed` whose message names the field.
 */
export class InvalidOpenAIChatRequest extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'InvalidOpenAIChatRequest';
  }
}
