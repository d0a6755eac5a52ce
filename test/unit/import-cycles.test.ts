import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every `.ts` file under `directory`, as absolute paths. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The project files `file` imports, type-only imports and re-exports included. */
function localImports(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => path.resolve(path.dirname(file), fileName.replace(/\.js$/, '.ts')))
    .filter((target) => known.has(target));
}

/** Each circle of imports once, as the files along it (Tarjan's strongly connected components). */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = graph.get(file)?.includes(file) ?? false;
    if (component.length > 1 || selfImport) circles.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('source imports', () => {
  it('form no circle: every module can be read without one half of a pair seeing the other unfinished', () => {
    const files = sourceFiles(SOURCE_ROOT);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, localImports(file, known)]));
    const circles = importCircles(graph).map((circle) =>
      circle.map((file) => path.relative(SOURCE_ROOT, file)).sort(),
    );
    expect(circles).toEqual([]);
  });

  it('finds a circle of two files, and one of three', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    const circles = importCircles(graph).map((circle) => circle.sort());
    expect(circles).toEqual(
      expect.arrayContaining([
        ['a', 'b'],
        ['c', 'd', 'e'],
      ]),
    );
    expect(circles).toHaveLength(2);
  });
});
