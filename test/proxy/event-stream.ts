/**
 * A client of a Server-Sent Events stream as a test reads it: fetch and a reader of its body, the
 * events parsed as they come (name and JSON data), waited for by name.
 */

export interface StreamEvent {
  name: string;
  data: unknown;
}

export interface EventStream {
  status: number;
  headers: Headers;
  /** The body's text when the answer is not a stream (a refusal). */
  text: string;
  /** Every event read so far. */
  events: StreamEvent[];
  /** The next event of that name (one read before and not yet taken counts), or null at the end. */
  // biome-ignore lint/suspicious/noExplicitAny: the events' data are read field by field in tests
  next(name: string, where?: (data: any) => boolean): Promise<any>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(url: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const events: StreamEvent[] = [];
  const taken = new Set<StreamEvent>();
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiting]) waiter();
  };
  let done = false;
  const stream: EventStream = {
    status: res.status,
    headers: res.headers,
    text: '',
    events,
    ended: Promise.resolve(),
    async next(name, where = () => true) {
      for (;;) {
        const found = events.find((e) => !taken.has(e) && e.name === name && where(e.data));
        if (found) {
          taken.add(found);
          return found.data;
        }
        if (done) return null;
        await new Promise<void>((resolve) => {
          const waiter = () => {
            waiting.delete(waiter);
            resolve();
          };
          waiting.add(waiter);
        });
      }
    },
    close: () => abort.abort(),
  };
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    stream.text = await res.text();
    done = true;
    return stream;
  }
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        for (let at = buffer.indexOf('\n\n'); at !== -1; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let name = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) name = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data !== '') events.push({ name, data: JSON.parse(data) });
        }
        wake();
      }
    } catch {
      // Aborted by the test, or cut by the server: the stream is over either way.
    } finally {
      done = true;
      wake();
    }
  })();
  return stream;
}
