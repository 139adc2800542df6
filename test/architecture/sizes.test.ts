import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The size rule: every .ts file of src/ and bin/ holds at most 600 lines, and every function
 * (declaration, expression, arrow, method, constructor, accessor) at most 120, measured on the syntax
 * tree of the TypeScript compiler. A function is measured from its first token (its doc comment left
 * out) to its closing one; it is named by itself, or by the declaration it is written in.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 120;

const FUNCTION_KINDS = new Set<SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

/** The name a function goes by: its own, or that of the nearest declaration holding it. */
function nameOf(node: Node): string {
  for (let at: Node | undefined = node; at; at = at.parent) {
    if (at.kind === SyntaxKind.Constructor) return 'constructor';
    const name = (at as { name?: Node & { text?: string } }).name;
    if (name && typeof name.text === 'string') return name.text;
  }
  return '(anonymous)';
}

/** Lines of a file, as `wc -l` counts them (a last line without its newline counts too). */
function linesOf(file: SourceFile): number {
  const { line } = file.getLineAndCharacterOfPosition(file.end);
  return file.text.endsWith('\n') ? line : line + 1;
}

/** The .ts files of a folder of the repository, as paths from its root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Measure {
  /** The files measured. */
  files: string[];
  /** Every file and function over its limit, keyed `path` or `path › name`, with its length. */
  over: Map<string, number>;
}

function measure(api: API): Measure {
  const snapshot = api.updateSnapshot({ openProject: resolve(ROOT, 'tsconfig.build.json') });
  const [project] = snapshot.getProjects();
  if (!project) throw new Error('tsconfig.build.json opened no project');
  const files: string[] = [];
  const over = new Map<string, number>();
  const record = (key: string, length: number) => over.set(key, Math.max(length, over.get(key) ?? 0));
  for (const fileName of project.program.getSourceFileNames()) {
    const path = relative(ROOT, fileName).split('\\').join('/');
    if (!/^(src|bin)\//.test(path) || !path.endsWith('.ts') || path.endsWith('.d.ts')) continue;
    const file = project.program.getSourceFile(fileName);
    if (!file) throw new Error(`no syntax tree for ${path}`);
    files.push(path);
    const lines = linesOf(file);
    if (lines > MAX_FILE_LINES) record(path, lines);
    const visit = (node: Node): void => {
      if (FUNCTION_KINDS.has(node.kind)) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > MAX_FUNCTION_LINES) record(`${path} › ${nameOf(node)}`, last - first + 1);
      }
      node.forEachChild(visit);
    };
    file.forEachChild(visit);
  }
  return { files, over };
}

describe('sizes', () => {
  let api: API;
  let files: string[];
  let over: Map<string, number>;
  beforeAll(() => {
    api = new API({ cwd: ROOT });
    ({ files, over } = measure(api));
  }, 60_000);
  afterAll(() => api?.close());

  it('measures every .ts file of src/ and bin/', () => {
    expect(files.sort()).toEqual([...sourceFiles('src'), ...sourceFiles('bin')].sort());
  });

  it(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, () => {
    expect([...over].map(([key, length]) => `${key}: ${length} lines`)).toEqual([]);
  });
});
