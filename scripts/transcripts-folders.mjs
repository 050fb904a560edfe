// The folder rules of src/transcripts/ (docs/ARCHITECTURE.md, "Inside transcripts/"), in one
// place for test/layers.test.ts (which enforces them) and scripts/import-circles.mjs (which
// counts the imports they forbid): core/ imports no format folder and no file of the layer's
// root; a format folder imports only core/, the ChatMessage hub's face (chat/index.ts) and itself.

/** The ChatMessage hub's face: the one file of `chat/` the other format folders import. */
export const HUB_FACE = 'chat/index.ts';

/**
 * What is wrong with an import from `from` to `to` (both paths relative to src/transcripts/,
 * `/`-separated) under the folder rules, or undefined when they allow it. `kind` sorts it:
 * `core-to-format` (core/ imports a format folder), `to-root` (core/ or a format folder imports
 * a file of the layer's root), `between-formats` (a format folder imports another one, or chat/
 * past its face). A file of the layer's root may import anything.
 *
 * @param {string} from
 * @param {string} to
 * @returns {{ kind: 'core-to-format' | 'to-root' | 'between-formats', message: string } | undefined}
 */
export function transcriptsFolderViolation(from, to) {
  const fromParts = from.split('/');
  const toParts = to.split('/');
  if (fromParts.length === 1) return undefined; // a file of the layer's root: the registry and the layer's functions
  const fromFolder = fromParts[0];
  const toFolder = toParts.length > 1 ? toParts[0] : undefined;
  if (toFolder === fromFolder) return undefined;
  if (toFolder === undefined)
    return { kind: 'to-root', message: `${fromFolder}/ imports ${to}, a file of the layer's root` };
  if (fromFolder === 'core') return { kind: 'core-to-format', message: `core/ imports the format folder ${toFolder}/` };
  if (toFolder === 'core' || to === HUB_FACE) return undefined;
  if (toFolder === 'chat')
    return { kind: 'between-formats', message: `${fromFolder}/ imports ${to}, not the hub's face ${HUB_FACE}` };
  return { kind: 'between-formats', message: `${fromFolder}/ imports the format folder ${toFolder}/` };
}
