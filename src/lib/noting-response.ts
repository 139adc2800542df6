import { type IncomingMessage, ServerResponse } from 'node:http';

/**
 * The answer object of the sandbox's own HTTP server (given to `http.createServer` through its
 * documented `ServerResponse` option): a ServerResponse that tells whoever asked (`onEnd`) the text
 * it ends with. The request journal keeps the text of each answer; reading it back from the web
 * Response the app made would either force that Response to be built again as a stream (the slow
 * path of the server adapter) or read a field the adapter keeps to itself. Here the text is the one
 * the server writes anyway, seen as it goes by.
 *
 * `onEnd` is called once: with the text when the answer is written whole as one string (JSON and
 * text answers), with null when it is streamed, written as bytes, or destroyed before it ends.
 */
export class NotingResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  onEnd: ((text: string | null) => void) | null = null;
  #streamed = false;

  #tell(text: string | null): void {
    const onEnd = this.onEnd;
    if (onEnd === null) return;
    this.onEnd = null;
    try {
      onEnd(text);
    } catch (error) {
      console.error('[unified-api-sandbox] an answer could not be noted:', error);
    }
  }

  // The overloads of write and end are those of ServerResponse: what is given is handed on as is.
  override write(chunk: unknown, ...rest: unknown[]): boolean {
    this.#streamed = true;
    return super.write(chunk, ...(rest as [never, never]));
  }

  override end(...args: unknown[]): this {
    const [chunk] = args;
    this.#tell(!this.#streamed && typeof chunk === 'string' ? chunk : null);
    return super.end(...(args as [never, never, never]));
  }

  override destroy(error?: Error): this {
    this.#tell(null);
    return super.destroy(error);
  }
}
