/**
 * A client request that breaks what generateContent requires
 * (https://ai.google.dev/api/generate-content#request-body). The relay turns it into a 400 whose
 * message names the field, as Gemini itself would (`INVALID_ARGUMENT`).
 */
export class InvalidGeminiRequest extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'InvalidGeminiRequest';
  }
}
