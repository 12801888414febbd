/**
 * A request field the upstream protocol cannot express. Thrown while
 * converting the request, so it always happens before any upstream call;
 * the chat service turns it into a 400 that names the field.
 */
export class UnsupportedParameterError extends Error {
  override readonly name = 'UnsupportedParameterError';

  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}
