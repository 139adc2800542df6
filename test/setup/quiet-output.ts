/**
 * A passing run prints no stack trace: an expected error is asserted, not logged. Everything the
 * run prints passes through this process (the tests' console, what the test processes and the
 * processes they spawn write), so its two streams are watched here; at the end the run fails,
 * quoting the first line before each trace and the trace's first frame.
 */
const FRAME = /^ {4}at \S/m;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of a terminal are removed
const COLOURS = /\u001b\[[0-9;]*m/g;

type Write = typeof process.stdout.write;

export default function noStackTrace(): () => void {
  const found: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => {
    const write = stream.write;
    stream.write = function watched(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      const text = (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString()).replace(
        COLOURS,
        '',
      );
      const frame = FRAME.exec(text);
      if (frame) {
        const lines = text.slice(0, frame.index).trimEnd().split('\n');
        const frameLine = text.slice(frame.index).split('\n')[0]?.trim();
        found.push(`${lines.slice(-2).join(' / ').trim()} ${frameLine}`);
      }
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Write;
    return write;
  });
  return () => {
    streams.forEach((stream, i) => {
      stream.write = writes[i] as Write;
    });
    if (found.length === 0) return;
    console.error(
      `The run printed ${found.length} stack trace(s):\n${found.map((f) => `  - ${f}`).join('\n')}`,
    );
    process.exitCode = 1;
  };
}
