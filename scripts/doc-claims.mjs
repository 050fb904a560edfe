// The `//=>` value claims of the TSDoc examples: find each claim, tell a literal claim (a JS
// value: strings, numbers, booleans, null, undefined, arrays, objects) from a descriptive one
// (prose, ellipses, a type), and rewrite the example so that the claimed expression reports its
// value at run time. scripts/check-doc-claims.mjs runs the rewritten examples against dist/.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inspect, isDeepStrictEqual } from 'node:util';
import ts from 'typescript';

/** The global a rewritten example reports each claimed value through: `(id, thunk)`. */
export const CLAIM_HOOK = '__turngateDocClaim';

/**
 * Parses the text after `//=>`. A trailing parenthesized remark (` (no tool_call_id)`) is not
 * part of the value. Returns `{ kind: 'literal', source, value, remark? }` when the rest is a
 * literal JS value, `{ kind: 'descriptive', source, reason }` otherwise.
 */
export function parseClaim(text) {
  const trimmed = text.trim();
  const literal = literalOf(trimmed);
  if (literal.ok) return { kind: 'literal', source: trimmed, value: literal.value };
  const remark = splitRemark(trimmed);
  if (remark !== undefined) {
    const stripped = literalOf(remark.value);
    if (stripped.ok) return { kind: 'literal', source: remark.value, value: stripped.value, remark: remark.remark };
  }
  return { kind: 'descriptive', source: trimmed, reason: literal.reason };
}

/** `value (remark)` -> the two parts, when the text ends with a balanced ` (...)`. */
function splitRemark(text) {
  if (!text.endsWith(')')) return undefined;
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(') {
      depth--;
      if (depth === 0) {
        if (i === 0 || text[i - 1] !== ' ') return undefined;
        return { value: text.slice(0, i).trimEnd(), remark: text.slice(i + 1, -1) };
      }
    }
  }
  return undefined;
}

/** Evaluates `text` when it parses as one expression built only of literals. */
function literalOf(text) {
  if (text === '') return { ok: false, reason: 'empty claim' };
  const file = ts.createSourceFile('claim.ts', `(${text}\n);`, ts.ScriptTarget.ES2022, true);
  if (file.parseDiagnostics.length > 0) return { ok: false, reason: 'not a JS expression' };
  const [statement] = file.statements;
  if (file.statements.length !== 1 || statement === undefined || !ts.isExpressionStatement(statement)) {
    return { ok: false, reason: 'not a single expression' };
  }
  const offending = nonLiteral(statement.expression);
  if (offending !== undefined) return { ok: false, reason: `not a literal: ${offending}` };
  return { ok: true, value: new Function(`return (${text}\n);`)() };
}

/** The first part of an expression that is not a literal value, or undefined. */
function nonLiteral(node) {
  if (ts.isParenthesizedExpression(node)) return nonLiteral(node.expression);
  if (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isBigIntLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  ) {
    return undefined;
  }
  if (ts.isIdentifier(node)) return ['undefined', 'NaN', 'Infinity'].includes(node.text) ? undefined : node.text;
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    return ts.isNumericLiteral(node.operand) || ts.isBigIntLiteral(node.operand) || isInfinity(node.operand)
      ? undefined
      : node.getText();
  }
  if (ts.isArrayLiteralExpression(node)) {
    for (const element of node.elements) {
      const offending = nonLiteral(element);
      if (offending !== undefined) return offending;
    }
    return undefined;
  }
  if (ts.isObjectLiteralExpression(node)) {
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) return property.getText();
      if (ts.isComputedPropertyName(property.name)) return property.name.getText();
      const offending = nonLiteral(property.initializer);
      if (offending !== undefined) return offending;
    }
    return undefined;
  }
  return node.getText();
}

function isInfinity(node) {
  return ts.isIdentifier(node) && node.text === 'Infinity';
}

/**
 * Finds the claims of one example and rewrites it. `code` is the example's TypeScript; line
 * numbers are 1-based within it. Each claim is attached to the statement that ends right before
 * its `//=>` (on the same line, or the line above for a claim on a line of its own): an
 * expression statement (also the branch of an `if`) or a `const` with one declarator. A literal
 * claim on such a statement gets its expression wrapped in the claim hook; any other claim is
 * descriptive (a claim on a type, or one that is not a literal value).
 *
 * Returns `{ code, claims }`; each claim is `{ id, line, expression, claim, status }` with
 * status `'checked'` (rewritten, with `claim.value`) or `'descriptive'` (with `reason`).
 */
export function rewriteExample(code) {
  const file = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const targets = claimTargets(file);
  const claims = [];
  const edits = [];
  for (const comment of claimComments(file, code)) {
    const id = claims.length;
    const claim = parseClaim(comment.text);
    const line = file.getLineAndCharacterOfPosition(comment.pos).line + 1;
    const target = targetBefore(code, targets, comment.pos);
    if (target === undefined) {
      claims.push({ id, line, expression: '', claim, status: 'descriptive', reason: 'no statement before it' });
      continue;
    }
    const expression = target.expression.getText(file);
    if (target.kind !== 'value') {
      claims.push({ id, line, expression, claim, status: 'descriptive', reason: `a claim on a ${target.kind}` });
      continue;
    }
    if (claim.kind !== 'literal') {
      claims.push({ id, line, expression, claim, status: 'descriptive', reason: claim.reason });
      continue;
    }
    claims.push({ id, line, expression, claim, status: 'checked' });
    const start = target.expression.getStart(file);
    const end = target.expression.getEnd();
    const isAsync = containsAwait(target.expression);
    edits.push({
      start,
      end,
      text: isAsync
        ? `(await globalThis.${CLAIM_HOOK}(${id}, async () => (${code.slice(start, end)}), true))`
        : `globalThis.${CLAIM_HOOK}(${id}, () => (${code.slice(start, end)}), false)`,
    });
  }
  edits.sort((a, b) => b.start - a.start);
  let rewritten = code;
  for (const edit of edits) rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
  return { code: rewritten, claims };
}

/** Every `//=>` comment (not inside a string, template or regex): its position and its text. */
function* claimComments(file, code) {
  for (const match of code.matchAll(/\/\/=>([^\n]*)/g)) {
    if (!insideLiteral(file, match.index)) yield { pos: match.index, text: match[1] };
  }
}

function insideLiteral(node, pos) {
  if (pos < node.getStart() || pos >= node.getEnd()) return false;
  if (ts.isStringLiteralLike(node) || ts.isTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) return true;
  return ts.forEachChild(node, (child) => insideLiteral(child, pos)) === true;
}

/** The statements a claim can attach to, keyed by where they end. */
function claimTargets(file) {
  const byEnd = new Map();
  const add = (end, target) => {
    const list = byEnd.get(end) ?? [];
    list.push(target);
    byEnd.set(end, list);
  };
  const visit = (node, depth) => {
    if (ts.isExpressionStatement(node)) add(node.getEnd(), { kind: 'value', expression: node.expression, depth });
    else if (ts.isVariableStatement(node)) {
      const [declaration] = node.declarationList.declarations;
      if (node.declarationList.declarations.length === 1 && declaration?.initializer !== undefined) {
        add(node.getEnd(), { kind: 'value', expression: declaration.initializer, depth });
      }
    } else if (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) {
      add(node.getEnd(), { kind: 'type', expression: node, depth });
    }
    ts.forEachChild(node, (child) => visit(child, depth + 1));
  };
  visit(file, 0);
  return byEnd;
}

/** The deepest target that ends at the last token before `pos` (only white space between). */
function targetBefore(code, targets, pos) {
  let end = pos;
  while (end > 0 && /\s/.test(code[end - 1] ?? '')) end--;
  const candidates = targets.get(end);
  if (candidates === undefined) return undefined;
  return candidates.reduce((best, target) => (target.depth > best.depth ? target : best));
}

function containsAwait(node) {
  if (ts.isAwaitExpression(node)) return true;
  if (ts.isFunctionLike(node)) return false;
  return ts.forEachChild(node, containsAwait) === true;
}

/**
 * Every TSDoc `@example` ```ts block of a source file's text: `{ line, bodyLine, code }`, where
 * `line` is the line of `@example` and `bodyLine` the file line of the code's first line.
 */
export function* examplesOf(text) {
  for (const match of text.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)) {
    const code = match[1]
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    const line = text.slice(0, match.index).split('\n').length;
    const before = text.slice(0, match.index + match[0].indexOf(match[1]));
    yield { line, bodyLine: before.split('\n').length, code };
  }
}

/**
 * The Markdown files whose ```ts blocks are examples: README.md, then every `.md` file under
 * docs/ (guides included), in path order. Paths are relative to `root`.
 */
export function markdownDocs(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(relative(root, path));
    }
  };
  walk(join(root, 'docs'));
  return ['README.md', ...found.sort()];
}

/**
 * Every ```ts block of a Markdown text: `{ line, bodyLine, code }`, where `line` is the line of
 * the opening fence and `bodyLine` the line of the code's first line. A block fenced otherwise
 * (```text, ```sh, or no language: pseudo-code, a shell session) is not an example.
 */
export function* markdownExamplesOf(text) {
  for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split('\n').length;
    yield { line, bodyLine: line + 1, code: match[1] };
  }
}

/** Every ```ts block of README.md and docs/**\/*.md, each with the file it is in (relative to `root`). */
export function* markdownExamples(root) {
  for (const file of markdownDocs(root)) {
    for (const example of markdownExamplesOf(readFileSync(join(root, file), 'utf8'))) yield { file, ...example };
  }
}

const show = (value) => inspect(value, { depth: 8, breakLength: Number.POSITIVE_INFINITY });

/**
 * Runs one rewritten example (`load()` evaluates it, e.g. imports its file) with the claim hook
 * installed, and compares each checked claim's value with isDeepStrictEqual. Returns, for each
 * claim of `checked`, `{ claim, holds, actual }`: `actual` describes the value (or that the
 * expression threw, or that the example never reached it) when the claim does not hold.
 */
export async function runClaims(checked, load, timeoutMs = 10_000) {
  const seen = new Map();
  globalThis[CLAIM_HOOK] = (id, thunk, isAsync) => {
    const record = (value) => {
      if (!seen.has(id)) seen.set(id, { value });
      return value;
    };
    const fail = (error) => {
      if (!seen.has(id)) seen.set(id, { error });
      throw error;
    };
    try {
      return isAsync ? thunk().then(record, fail) : record(thunk());
    } catch (error) {
      return fail(error);
    }
  };
  let crash;
  let timer;
  try {
    await Promise.race([
      load(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the example did not finish in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    crash = error;
  } finally {
    clearTimeout(timer);
    globalThis[CLAIM_HOOK] = undefined;
  }
  return checked.map((claim) => {
    const result = seen.get(claim.id);
    if (result === undefined) {
      const why = crash === undefined ? '' : `: the example threw ${show(crash)}`;
      return { claim, holds: false, actual: `never reached${why}` };
    }
    if ('error' in result) return { claim, holds: false, actual: `threw ${show(result.error)}` };
    if (isDeepStrictEqual(result.value, claim.claim.value)) return { claim, holds: true, actual: show(result.value) };
    return { claim, holds: false, actual: show(result.value) };
  });
}
