/**
 * The links of README.md and docs/**\/*.md (the guides moved out of the README link to each
 * other): every relative link names a file of the repository, and every `#anchor` a heading of
 * the file it points into (GitHub's anchor for it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownDocs } from '../scripts/doc-claims.mjs';

const root = new URL('..', import.meta.url).pathname;

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The Markdown text outside fenced blocks. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

function anchorsOf(file: string): Set<string> {
  const headings = prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm);
  return new Set([...headings].map((m) => anchorOf(m[1] ?? '')));
}

describe('links between the docs', () => {
  it('anchorOf gives GitHub anchors', () => {
    expect(anchorOf('Effects run once: the effect ledger')).toBe('effects-run-once-the-effect-ledger');
    expect(anchorOf('Chat agents: `turngate/chat`')).toBe('chat-agents-turngatechat');
  });

  it('every relative link of README.md and docs/ names a file, and its anchor a heading there', () => {
    const broken: string[] = [];
    let links = 0;
    for (const doc of markdownDocs(root)) {
      const path = join(root, doc);
      for (const match of prose(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        links++;
        const [file = '', anchor] = target.split('#');
        const into = file === '' ? path : join(dirname(path), file);
        if (!existsSync(into)) broken.push(`${doc}: ${target} (no file ${relative(root, into)})`);
        else if (anchor !== undefined && into.endsWith('.md') && !anchorsOf(into).has(anchor)) {
          broken.push(`${doc}: ${target} (no heading #${anchor} in ${relative(root, into)})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(20);
  });
});
