// The import graph of a folder of src/ (type-only imports and re-exports included), read with the
// TypeScript API: its import circles (strongly connected components of more than one file) and,
// for src/transcripts, the imports its folder rules forbid (docs/ARCHITECTURE.md, "Inside
// transcripts/").
//
//   node scripts/import-circles.mjs [folder]     (default: src/transcripts)
//   node scripts/import-circles.mjs --json [folder]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { transcriptsFolderViolation } from './transcripts-folders.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const json = args.includes('--json');
const folder = resolve(root, args.find((arg) => !arg.startsWith('--')) ?? 'src/transcripts');

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/** File -> the files of the folder it imports (relative specifiers only). */
const graph = new Map();
for (const file of sourceFiles(folder)) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolve(dirname(file), fileName);
    if (target.startsWith(`${folder}/`)) targets.add(target);
  }
  graph.set(file, targets);
}

/** Tarjan's strongly connected components, iteratively. */
function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const to = edges[frame[2]++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, [...graph.get(to)], 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        found.push(component);
      }
    }
  }
  return found;
}

const name = (file) => relative(folder, file);
const circles = components(graph)
  .filter((component) => component.length > 1)
  .sort((a, b) => b.length - a.length);

// The folder rules of src/transcripts (scripts/transcripts-folders.mjs), applied to the folder's
// own imports.
const coreToFormat = [];
const sibling = [];
const toRoot = [];
const byKind = { 'core-to-format': coreToFormat, 'between-formats': sibling, 'to-root': toRoot };
for (const [file, targets] of graph) {
  for (const target of targets) {
    const wrong = transcriptsFolderViolation(name(file), name(target));
    if (wrong !== undefined) byKind[wrong.kind].push(`${name(file)} -> ${name(target)}`);
  }
}

const summary = {
  folder: relative(root, folder),
  files: graph.size,
  imports: [...graph.values()].reduce((sum, targets) => sum + targets.size, 0),
  circles: circles.length,
  largest: circles[0]?.length ?? 0,
  coreToFormat: coreToFormat.length,
  betweenFormats: sibling.length,
  folderToRootFile: toRoot.length,
};
if (json)
  console.log(
    JSON.stringify(
      {
        ...summary,
        circleFiles: circles.map((c) => c.map(name).sort()),
        coreToFormat,
        betweenFormats: sibling,
        folderToRootFile: toRoot,
      },
      null,
      2,
    ),
  );
else {
  console.log(
    `${summary.folder}: ${summary.files} files, ${summary.imports} imports; ${summary.circles} import circle(s), the largest ${summary.largest} files`,
  );
  for (const [i, component] of circles.entries())
    console.log(`  circle ${i + 1} (${component.length}): ${component.map(name).sort().join(' ')}`);
  console.log(`core/ -> a format folder: ${coreToFormat.length}`);
  for (const edge of coreToFormat) console.log(`  ${edge}`);
  console.log(`a format folder -> another format folder (but the hub's chat/index.ts): ${sibling.length}`);
  for (const edge of sibling) console.log(`  ${edge}`);
  console.log(`core/ or a format folder -> a file of the folder's root: ${toRoot.length}`);
  for (const edge of toRoot) console.log(`  ${edge}`);
}
